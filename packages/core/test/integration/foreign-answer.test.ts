import { expect, test } from "vitest";
import type { ChannelLike } from "../../src/tabs/channel";
import { askForDeployment, ledger, makeClient, settled, startHarness } from "./harness";

/** Every value of every object store of one database, as stored. */
async function dumpDatabase(factory: IDBFactory, name: string): Promise<unknown[]> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = factory.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const names = [...db.objectStoreNames];
  const tx = db.transaction(names, "readonly");
  const values = await Promise.all(
    names.map(
      (store) =>
        new Promise<unknown[]>((resolve, reject) => {
          const request = tx.objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        }),
    ),
  );
  db.close();
  return values.flat();
}

/** A channel factory that keeps every message a tab posts, as it would cross to the others. */
function recordingChannels(posted: unknown[]) {
  return (): ChannelLike => ({
    postMessage: (message) => posted.push(structuredClone(message)),
    addEventListener: () => {},
    removeEventListener: () => {},
    close: () => {},
  });
}

test("answered elsewhere keeps the verdict and the decision kind, never the other answer's payload", async () => {
  const harness = await startHarness();
  const phone = makeClient(harness, { dbName: "phone" });
  const posted: unknown[] = [];
  const laptop = makeClient(harness, { dbName: "laptop", deps: { openChannel: recordingChannels(posted) } });
  await phone.start();
  await laptop.start();
  const interrupt = await askForDeployment(phone, "t-foreign");
  await laptop.thread("t-foreign").hydrate();

  const approved = await phone.answer({
    threadId: "t-foreign",
    interruptId: interrupt.id,
    approved: true,
    editedArgs: { target: "phone-secret-target" },
  });
  expect((await settled(phone, approved.key)).state).toBe("applied");
  const rejected = await laptop.answer({ threadId: "t-foreign", interruptId: interrupt.id, approved: false });
  const final = await settled(laptop, rejected.key);

  expect(final.state).toBe("elsewhere");
  expect(final.recordedDecisions).toEqual([
    { interruptId: interrupt.id, status: "resolved", payload: { approved: true } },
  ]);
  expect(await ledger(harness)).toEqual([
    expect.objectContaining({ args: { target: "phone-secret-target" } }),
  ]);
  // Where the truth is: what the laptop stored, and what it told its other tabs.
  const laptopDb = await dumpDatabase(harness.indexedDB, "laptop");
  expect(JSON.stringify(laptopDb)).toContain(rejected.key);
  const stored = JSON.stringify(laptop.outbox.getState().entries) + JSON.stringify(laptopDb);
  expect(stored).not.toContain("phone-secret-target");
  expect(posted.length).toBeGreaterThan(0);
  expect(JSON.stringify(posted)).not.toContain("phone-secret-target");
});
