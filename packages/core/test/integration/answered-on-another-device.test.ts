// Two devices on a run with two questions: one answer is held on the laptop (1 of 2)
// while the phone rejects both. Back in view, the laptop reads the thread again and
// learns it without the person acting: the held answer was never sent, and settles
// as answered elsewhere; the other card is gone. Nothing ran.
import { expect, test } from "vitest";
import { manualSignal } from "../../testing/manual-signal";
import { entryReaches, ledger, makeClient, settled, startHarness } from "./harness";

test("a held answer whose run another device answered settles as elsewhere when the page is back in view", async () => {
  const harness = await startHarness();
  const visible = manualSignal(true);
  const laptop = makeClient(harness, { dbName: "laptop", deps: { visible } });
  const phone = makeClient(harness, { dbName: "phone" });
  await laptop.start();
  await phone.start();
  const onLaptop = laptop.thread("t-devices");
  await onLaptop.send("deploy to prod and staging");
  const [prod, staging] = onLaptop.store.getState().pendingInterrupts;
  if (!prod || !staging) throw new Error("the agent did not ask two questions");
  const held = await laptop.answer({ threadId: "t-devices", interruptId: prod.id, approved: true });
  await entryReaches(laptop, held.key, ["held"]);

  visible.set(false);
  await phone.thread("t-devices").hydrate();
  const rejected = await Promise.all(
    [prod, staging].map((question) =>
      phone.answer({ threadId: "t-devices", interruptId: question.id, approved: false }),
    ),
  );
  for (const entry of rejected) expect((await settled(phone, entry.key)).state).toBe("applied");
  // Still as it was on the laptop: nothing told it.
  expect(onLaptop.store.getState().pendingInterrupts).toHaveLength(2);

  visible.set(true);
  const final = await settled(laptop, held.key);
  expect(final.state).toBe("elsewhere");
  expect(final.attempts).toBe(0);
  expect(final.verdictDetail).toMatch(/Nothing was sent from here/);
  expect(onLaptop.store.getState().pendingInterrupts).toEqual([]);
  expect(await ledger(harness)).toEqual([]);
});

test("the device whose answer lost the race shows what the agent said after the winning one", async () => {
  const harness = await startHarness();
  const laptop = makeClient(harness, { dbName: "laptop" });
  const phone = makeClient(harness, { dbName: "phone" });
  await laptop.start();
  await phone.start();
  await laptop.thread("t-race").send("deploy to prod");
  const onPhone = phone.thread("t-race");
  await onPhone.hydrate();
  const [question] = onPhone.store.getState().pendingInterrupts;
  if (!question) throw new Error("the agent did not ask");

  const won = await laptop.answer({ threadId: "t-race", interruptId: question.id, approved: true });
  expect((await settled(laptop, won.key)).state).toBe("applied");
  const lost = await phone.answer({ threadId: "t-race", interruptId: question.id, approved: false });
  expect((await settled(phone, lost.key)).state).toBe("elsewhere");

  const said = () => onPhone.store.getState().messages.map((message) => message.content);
  await expect.poll(said).toContain("Deployed to prod.");
  expect(await ledger(harness)).toHaveLength(1);
});
