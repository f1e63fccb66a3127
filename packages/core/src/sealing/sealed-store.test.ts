import { IDBFactory } from "fake-indexeddb";
import { expect, test } from "vitest";
import { rawDatabaseText } from "../../test/support/raw-database";
import { makeTestEntry, runOutboxStoreContract } from "../../test/support/store-contract";
import { IdbStore } from "../outbox/idb-store";
import type { OutboxStore } from "../outbox/outbox-store";
import { SealedStore } from "./sealed-store";
import type { SealedEntry } from "./sealing-plugin";

const newKey = () =>
  crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);

function sealed(inner: OutboxStore, key: CryptoKey | undefined, reported: SealedEntry[][] = []) {
  return new SealedStore(inner, {
    key: () => key,
    crypto,
    onSealed: (entries) => reported.push([...entries]),
  });
}

// Sealing changes what is stored, never what the store promises.
let factory = new IDBFactory();
let contractKey: CryptoKey | undefined;
runOutboxStoreContract(
  "SealedStore over IdbStore (fake-indexeddb)",
  async () => {
    factory = new IDBFactory();
    contractKey = await newKey();
    return sealed(await IdbStore.open({ indexedDB: factory, dbName: "outbox-contract" }), contractKey);
  },
  {
    startRead: false,
    connect: async () =>
      sealed(await IdbStore.open({ indexedDB: factory, dbName: "outbox-contract" }), contractKey),
  },
);

const SECRET = "canary-0e5d";

test("the answer fields are sealed, the scheduling fields stay clear", async () => {
  const idb = new IDBFactory();
  const store = sealed(await IdbStore.open({ indexedDB: idb, dbName: "db" }), await newKey());
  const entry = makeTestEntry({
    body: `{"editedArgs":{"target":"${SECRET}"}}`,
    decision: { kind: "approve", editedArgs: { target: SECRET }, reason: SECRET },
    question: { message: SECRET, proposedArgs: { target: SECRET } },
    recordedDecisions: [{ interruptId: "i", status: "resolved", payload: { approved: true } }],
  });
  await store.put(entry);
  store.close();

  const raw = await rawDatabaseText(idb, "db");
  expect(raw).not.toContain(SECRET);
  const [stored] = JSON.parse(raw) as Array<Record<string, unknown>>;
  expect(Object.keys(stored ?? {}).sort()).toEqual(
    [
      ...Object.keys(entry).filter(
        (field) => !["body", "decision", "question", "recordedDecisions"].includes(field),
      ),
      "sealed",
    ].sort(),
  );
});

test("an entry no key opens is withheld and reported, never deleted; a write without a key is refused", async () => {
  const idb = new IDBFactory();
  const key = await newKey();
  const writer = sealed(await IdbStore.open({ indexedDB: idb, dbName: "db" }), key);
  const entry = makeTestEntry({ decision: { kind: "approve", editedArgs: { target: SECRET } } });
  await writer.put(entry);

  const reported: SealedEntry[][] = [];
  const reader = sealed(await IdbStore.open({ indexedDB: idb, dbName: "db" }), undefined, reported);
  expect(await reader.listByNamespace(entry.namespace)).toEqual([]);
  expect(await reader.get(entry.key)).toBeUndefined();
  expect(reported.at(-1)).toEqual([
    {
      key: entry.key,
      namespace: entry.namespace,
      threadId: entry.threadId,
      interruptId: entry.interruptId,
      state: entry.state,
      createdAt: entry.createdAt,
      reason: "key_missing",
    },
  ]);
  await expect(reader.put(makeTestEntry())).rejects.toMatchObject({ kind: "sealing_key_missing" });
  await expect(reader.putIfAbsentForInterrupt({ ...entry, key: "other" })).rejects.toMatchObject({
    kind: "sealing_key_missing",
  });

  const wrongKey = sealed(await IdbStore.open({ indexedDB: idb, dbName: "db" }), await newKey(), reported);
  expect(await wrongKey.listByNamespace(entry.namespace)).toEqual([]);
  expect(reported.at(-1)?.[0]?.reason).toBe("key_rejected");

  expect(await writer.listByNamespace(entry.namespace)).toEqual([entry]);
});

test("a sealed answer copied onto another entry does not open", async () => {
  const inner = await IdbStore.open({ indexedDB: new IDBFactory(), dbName: "db" });
  const key = await newKey();
  const store = sealed(inner, key);
  const entry = makeTestEntry();
  await store.put(entry);
  const record = (await inner.get(entry.key)) as unknown as Record<string, unknown>;
  await inner.put({ ...(record as object), key: "moved" } as never);
  const reported: SealedEntry[][] = [];
  expect(await sealed(inner, key, reported).get("moved")).toBeUndefined();
  expect(reported.at(-1)?.[0]).toMatchObject({ key: "moved", reason: "key_rejected" });
});
