import type { Interrupt } from "@agui-outbox/core/protocol";
import { expect, test } from "vitest";
import type { MockServer } from "../src/index";
import { addFaults, ledger, postAndRead, start, terminal, userTurn, xResume } from "./support/harness";

async function askForTwo(server: MockServer, threadId: string) {
  const reader = await postAndRead(
    server,
    userTurn(threadId, `${threadId}-ask`, "deploy to prod and staging"),
  );
  const outcome = terminal(reader).outcome as { type: string; interrupts: Interrupt[] };
  expect(outcome.type).toBe("interrupt");
  expect(outcome.interrupts.map((interrupt) => interrupt.message)).toEqual([
    "Deploy to prod?",
    "Deploy to staging?",
  ]);
  const [prod, staging] = outcome.interrupts;
  if (prod === undefined || staging === undefined) throw new Error("two interrupts expected");
  return { prod, staging };
}

function batch(
  server: MockServer,
  threadId: string,
  runId: string,
  key: string,
  answers: readonly { interruptId: string; payload: unknown }[],
) {
  const body = JSON.stringify({
    threadId,
    runId,
    messages: [],
    resume: answers.map((answer) => ({
      ...answer,
      status: "resolved",
      metadata: { "x-idempotency-key": key },
    })),
  });
  return postAndRead(server, body, { "idempotency-key": key });
}

test("a batch must answer every open interrupt: a partial one gets MISSING_INTERRUPT and claims nothing", async () => {
  const server = await start();
  const { prod, staging } = await askForTwo(server, "t-partial");
  const partial = await batch(server, "t-partial", "r1", "k1", [
    { interruptId: prod.id, payload: { approved: true } },
  ]);
  expect(terminal(partial)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_MISSING_INTERRUPT" });
  expect(String(terminal(partial).message)).toContain(staging.id);
  expect(await ledger(server)).toHaveLength(0);

  const full = await batch(server, "t-partial", "r2", "k2", [
    { interruptId: prod.id, payload: { approved: true } },
    { interruptId: staging.id, payload: { approved: false } },
  ]);
  expect(xResume(full.events[0])).toMatchObject({ ack: "claimed", interruptIds: [prod.id, staging.id] });
  expect(full.events.find((event) => event.type === "TEXT_MESSAGE_CONTENT")?.delta).toBe(
    "Deployed to prod. Okay, I won't deploy.",
  );
  expect((await ledger(server)).map((entry) => entry.args)).toEqual([{ target: "prod" }]);
});

test("a batch with an id that was never pending claims nothing, not even the valid answers", async () => {
  const server = await start();
  const { prod, staging } = await askForTwo(server, "t-unknown-in-batch");
  const reader = await batch(server, "t-unknown-in-batch", "r1", "k1", [
    { interruptId: prod.id, payload: { approved: true } },
    { interruptId: staging.id, payload: { approved: true } },
    { interruptId: "call_never", payload: { approved: true } },
  ]);
  expect(terminal(reader)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_NOT_FOUND" });
  expect(await ledger(server)).toHaveLength(0);
});

test("a failure after both tools ran: the retry re-uses both stored results, two executions in all", async () => {
  const server = await start();
  const { prod, staging } = await askForTwo(server, "t-batch-retry");
  await addFaults(server, [{ point: "after-tool", action: "fail" }]);
  const answers = [
    { interruptId: prod.id, payload: { approved: true } },
    { interruptId: staging.id, payload: { approved: true } },
  ];
  const failed = await batch(server, "t-batch-retry", "r1", "k1", answers);
  expect(terminal(failed).code).toBe("AGENT_MODEL_CALL_FAILED");
  expect(await ledger(server)).toHaveLength(2);
  const retried = await batch(server, "t-batch-retry", "r1", "k1", answers);
  expect(terminal(retried).type).toBe("RUN_FINISHED");
  expect(retried.events.find((event) => event.type === "TEXT_MESSAGE_CONTENT")?.delta).toBe(
    "Deployed to prod. Deployed to staging.",
  );
  expect(await ledger(server)).toHaveLength(2);
});
