import { expect, test } from "vitest";
import { InMemoryBroadcastHub, InMemoryLockManager } from "../../testing/in-memory-tabs";
import {
  askForDeployment,
  chaos,
  entryOf,
  type Harness,
  ledger,
  makeClient,
  type RequestRecord,
  recordingFetch,
  settled,
  startHarness,
} from "./harness";

// A lost answer posted to the agent as a message, on the person's word: the mark
// lives on the entry, so a reload (a new client over the same IndexedDB) or
// another tab never posts it again. Asserted at the server: the message runs it
// received (POSTs without an Idempotency-Key).

const TEXT = "My earlier answer may not have arrived: I approved it.";

const messagesSent = (requests: readonly RequestRecord[], before: number) =>
  requests.slice(before).filter((request) => request.method === "POST" && request.idempotencyKey === null);

async function lostAnswer(harness: Harness, client: ReturnType<typeof makeClient>) {
  await client.start();
  const interrupt = await askForDeployment(client, "t-lost");
  await chaos(harness, [{ point: "mid-tool", action: "fail" }]);
  const entry = await client.answer({ threadId: "t-lost", interruptId: interrupt.id, approved: true });
  const lost = await settled(client, entry.key);
  expect(lost.state).toBe("lost");
  return lost;
}

test("a lost answer resent as a message stays marked after a reload, and is never posted twice", async () => {
  const harness = await startHarness();
  const requests: RequestRecord[] = [];
  const first = makeClient(harness, { deps: { fetch: recordingFetch(requests) } });
  const lost = await lostAnswer(harness, first);
  const before = requests.length;

  expect(await first.resendAsMessage(lost.key, TEXT)).toBe(true);
  // A second click in the same page posts nothing.
  expect(await first.resendAsMessage(lost.key, TEXT)).toBe(false);
  expect(entryOf(first, lost.key).resentAt).toBeTypeOf("number");
  first.dispose();

  const next = makeClient(harness, { deps: { fetch: recordingFetch(requests) } });
  await next.start();
  const reloaded = entryOf(next, lost.key);
  expect(reloaded).toMatchObject({ state: "lost", resentAt: entryOf(first, lost.key).resentAt });
  expect(await next.resendAsMessage(lost.key, TEXT)).toBe(false);
  expect(messagesSent(requests, before)).toHaveLength(1);
  expect(await ledger(harness)).toHaveLength(1);
});

test("two tabs resend the same lost answer at once: one message, both tabs show the mark", async () => {
  const harness = await startHarness();
  const locks = new InMemoryLockManager();
  const hub = new InMemoryBroadcastHub();
  const requests: RequestRecord[] = [];
  const tab = () =>
    makeClient(harness, {
      deps: {
        locks: () => locks,
        openChannel: (name) => hub.openChannel(name),
        fetch: recordingFetch(requests),
      },
    });
  const leader = tab();
  const lost = await lostAnswer(harness, leader);
  const follower = tab();
  await follower.start();
  const before = requests.length;

  const posted = await Promise.all([
    leader.resendAsMessage(lost.key, TEXT),
    follower.resendAsMessage(lost.key, TEXT),
  ]);
  expect(posted.filter(Boolean)).toHaveLength(1);
  expect(messagesSent(requests, before)).toHaveLength(1);
  expect(entryOf(leader, lost.key).resentAt).toBeTypeOf("number");
  expect(entryOf(follower, lost.key).resentAt).toBe(entryOf(leader, lost.key).resentAt);
});

test("an answer that is not lost is never posted as a message", async () => {
  const harness = await startHarness();
  const requests: RequestRecord[] = [];
  const client = makeClient(harness, { deps: { fetch: recordingFetch(requests) } });
  await client.start();
  const interrupt = await askForDeployment(client, "t-applied");
  const entry = await client.answer({ threadId: "t-applied", interruptId: interrupt.id, approved: true });
  expect((await settled(client, entry.key)).state).toBe("applied");
  const before = requests.length;
  expect(await client.resendAsMessage(entry.key, TEXT)).toBe(false);
  expect(entryOf(client, entry.key).resentAt).toBeUndefined();
  expect(messagesSent(requests, before)).toHaveLength(0);
});
