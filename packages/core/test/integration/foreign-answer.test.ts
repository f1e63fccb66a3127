import { expect, test } from "vitest";
import type { ChannelLike } from "../../src/tabs/channel";
import { rawDatabaseText } from "../support/raw-database";
import { askForDeployment, ledger, makeClient, settled, startHarness } from "./harness";

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
  const laptopDb = await rawDatabaseText(harness.indexedDB, "laptop");
  expect(laptopDb).toContain(rejected.key);
  const stored = JSON.stringify(laptop.outbox.getState().entries) + laptopDb;
  expect(stored).not.toContain("phone-secret-target");
  expect(posted.length).toBeGreaterThan(0);
  expect(JSON.stringify(posted)).not.toContain("phone-secret-target");
});
