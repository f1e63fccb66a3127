import { expect, test } from "vitest";
import { isOutboxError } from "../../src/errors/outbox-error";
import { sealAnswers } from "../../src/sealing";
import { InMemoryBroadcastHub, InMemoryLockManager } from "../../testing/in-memory-tabs";
import { rawDatabaseText } from "../support/raw-database";
import { askForDeployment, type Harness, ledger, makeClient, settled, startHarness, until } from "./harness";

const SECRET = "canary-7f3a-edited-target";

function newKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
}

/** A fetch whose answers never leave the page (it is closed before they do); everything else goes through. */
function answersNeverLeave(sent: string[]) {
  return (input: string, init?: RequestInit): Promise<Response> => {
    if (!new Headers(init?.headers).has("idempotency-key")) return fetch(input, init);
    sent.push(String(init?.body));
    return new Promise<Response>(() => {});
  };
}

/** Resume bodies as sent, by idempotency key. */
function recordingFetch(bodies: Map<string, string[]>) {
  return (input: string, init?: RequestInit): Promise<Response> => {
    const key = new Headers(init?.headers).get("idempotency-key");
    if (key) bodies.set(key, [...(bodies.get(key) ?? []), String(init?.body)]);
    return fetch(input, init);
  };
}

/** A page that answers with edited arguments, sealed, and is closed before the answer leaves. */
async function answerAndClose(harness: Harness, key: CryptoKey) {
  const sealing = sealAnswers();
  sealing.setKey(key);
  const sent: string[] = [];
  const page = makeClient(harness, { sealing, deps: { fetch: answersNeverLeave(sent) } });
  await page.start();
  const interrupt = await askForDeployment(page, "t-sealed");
  const entry = await page.answer({
    threadId: "t-sealed",
    interruptId: interrupt.id,
    approved: true,
    editedArgs: { target: SECRET },
  });
  await until(() => sent.length === 1, "the first send");
  page.dispose();
  return entry;
}

test("sealed at rest: storage holds no answer in the clear; a reload with the key sends the exact body once", async () => {
  const harness = await startHarness();
  const key = await newKey();
  const entry = await answerAndClose(harness, key);
  expect(entry.body).toContain(SECRET);

  const raw = await rawDatabaseText(harness.indexedDB, "outbox-test");
  expect(raw).toContain(entry.key);
  expect(raw).toContain(`"threadId":"t-sealed"`);
  expect(raw).not.toContain(SECRET);
  expect(raw).not.toContain("editedArgs");
  expect(raw).not.toContain("approved");

  const sealing = sealAnswers();
  sealing.setKey(key);
  const bodies = new Map<string, string[]>();
  const reloaded = makeClient(harness, { sealing, deps: { fetch: recordingFetch(bodies) } });
  await reloaded.start();
  const final = await settled(reloaded, entry.key);

  expect(final.state).toBe("applied");
  expect(final.decision).toEqual({ kind: "approve", editedArgs: { target: SECRET } });
  expect(bodies.get(entry.key)).toEqual([entry.body]);
  expect(await ledger(harness)).toEqual([expect.objectContaining({ args: { target: SECRET } })]);
  expect(await rawDatabaseText(harness.indexedDB, "outbox-test")).not.toContain(SECRET);
});

test("without the key the answer is kept sealed and reported, never dropped; supplying it sends it", async () => {
  const harness = await startHarness();
  const key = await newKey();
  const entry = await answerAndClose(harness, key);

  const sealing = sealAnswers();
  const bodies = new Map<string, string[]>();
  const reloaded = makeClient(harness, { sealing, deps: { fetch: recordingFetch(bodies) } });
  await reloaded.start();

  expect(reloaded.outbox.getState().entries).toEqual([]);
  expect(reloaded.outbox.getState().sealed).toEqual([
    expect.objectContaining({
      key: entry.key,
      threadId: "t-sealed",
      interruptId: entry.interruptId,
      reason: "key_missing",
    }),
  ]);
  // A new answer cannot be stored sealed: refused, typed, nothing written.
  await reloaded.thread("t-sealed").hydrate();
  const refused = await reloaded
    .answer({ threadId: "t-sealed", interruptId: entry.interruptId, approved: false })
    .catch((error: unknown) => error);
  expect(isOutboxError(refused) && refused.kind).toBe("sealing_key_missing");

  // Another key does not open it either.
  sealing.setKey(await newKey());
  await until(
    () => reloaded.outbox.getState().sealed[0]?.reason === "key_rejected",
    "the wrong key reported",
  );
  expect(bodies.size).toBe(0);
  expect(await rawDatabaseText(harness.indexedDB, "outbox-test")).toContain(entry.key);

  sealing.setKey(key);
  const final = await settled(reloaded, entry.key);
  expect(final.state).toBe("applied");
  expect(reloaded.outbox.getState().sealed).toEqual([]);
  expect(bodies.get(entry.key)).toEqual([entry.body]);
  expect(await ledger(harness)).toEqual([expect.objectContaining({ args: { target: SECRET } })]);
});

test("two tabs, each with the key: the follower's sealed answer is sent by the leader, once", async () => {
  const harness = await startHarness();
  const key = await newKey();
  const locks = new InMemoryLockManager();
  const hub = new InMemoryBroadcastHub();
  const bodies = new Map<string, string[]>();
  const tab = () => {
    const sealing = sealAnswers();
    sealing.setKey(key);
    return makeClient(harness, {
      sealing,
      deps: {
        locks: () => locks,
        openChannel: (name) => hub.openChannel(name),
        fetch: recordingFetch(bodies),
      },
    });
  };
  const leader = tab();
  const follower = tab();
  await leader.start();
  await follower.start();
  expect(follower.connection.getState().leader).toBe(false);
  const interrupt = await askForDeployment(leader, "t-tabs");

  const entry = await follower.answer({
    threadId: "t-tabs",
    interruptId: interrupt.id,
    approved: true,
    editedArgs: { target: SECRET },
  });
  follower.dispose();

  expect((await settled(leader, entry.key)).state).toBe("applied");
  expect(bodies.get(entry.key)).toEqual([entry.body]);
  expect(await ledger(harness)).toEqual([expect.objectContaining({ args: { target: SECRET } })]);
  expect(await rawDatabaseText(harness.indexedDB, "outbox-test")).not.toContain(SECRET);
});
