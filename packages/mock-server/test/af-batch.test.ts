import type { Interrupt } from "@agui-outbox/core/protocol";
import { expect, test } from "vitest";
import { REJECTED_TOOL_RESULT } from "../src/af/af-payloads";
import type { MockServer } from "../src/index";
import { ledger, postAndRead, start, terminal, userTurn } from "./support/harness";

// One resume that approves one call and rejects the other, on the Agent Framework
// emulations, as measured against the real releases (e2e/peers/agent-framework,
// release check `batch-mixed` in docs/interop.md).

type Reader = Awaited<ReturnType<typeof postAndRead>>;

async function askForTwo(server: MockServer, threadId: string) {
  const reader = await postAndRead(
    server,
    userTurn(threadId, `${threadId}-ask`, "deploy to prod and staging"),
  );
  const outcome = terminal(reader).outcome as { interrupts: Interrupt[] };
  const [prod, staging] = outcome.interrupts;
  if (prod === undefined || staging === undefined) throw new Error("two interrupts expected");
  return { prod, staging };
}

let runs = 0;
function answer(
  server: MockServer,
  threadId: string,
  decisions: ReadonlyArray<readonly [Interrupt, boolean]>,
) {
  runs += 1;
  return postAndRead(
    server,
    JSON.stringify({
      threadId,
      runId: `${threadId}-r${runs}`,
      messages: [],
      resume: decisions.map(([interrupt, approved]) => ({
        interruptId: interrupt.id,
        status: "resolved",
        payload: { approved, accepted: approved },
      })),
    }),
  );
}

const hydrate = (server: MockServer, threadId: string) =>
  postAndRead(server, JSON.stringify({ threadId, runId: `${threadId}-h${++runs}`, messages: [] }));
const asked = (reader: Reader) =>
  ((terminal(reader).outcome as { interrupts?: Interrupt[] } | null)?.interrupts ?? []).map(
    (interrupt) => interrupt.id,
  );
const toolMessages = (reader: Reader) =>
  (
    (reader.events.findLast((event) => event.type === "MESSAGES_SNAPSHOT")?.messages ?? []) as Array<{
      role: string;
      toolCallId?: string;
      content: string;
    }>
  )
    .filter((message) => message.role === "tool")
    .map((message) => [message.toolCallId, message.content]);

test("af-lifecycle (1.7.0), one approved and one rejected: neither runs, the rejected one is asked again under its own id", async () => {
  const server = await start({ mode: "af-lifecycle" });
  const { prod, staging } = await askForTwo(server, "t-mixed");
  const mixed = await answer(server, "t-mixed", [
    [prod, true],
    [staging, false],
  ]);
  expect(terminal(mixed).type).toBe("RUN_FINISHED");
  expect(asked(mixed)).toEqual([staging.id]);
  expect(mixed.types).not.toContain("TOOL_CALL_RESULT");
  // The thread holds the rejection, yet asks the question again.
  expect(toolMessages(mixed)).toEqual([[staging.toolCallId, REJECTED_TOOL_RESULT]]);
  expect(await ledger(server)).toHaveLength(0);
  // Hydration shows only the question asked again; the approved one is not shown…
  expect(asked(await hydrate(server, "t-mixed"))).toEqual([staging.id]);
  // …yet still pending: a resume without it is refused.
  const alone = await answer(server, "t-mixed", [[staging, true]]);
  expect(terminal(alone)).toMatchObject({ code: "APPROVAL_RESUME_MISSING_INTERRUPT" });
  expect(String(terminal(alone).message)).toContain(prod.id);
  // The identical batch again: the same, nothing runs.
  const again = await answer(server, "t-mixed", [
    [prod, true],
    [staging, false],
  ]);
  expect(asked(again)).toEqual([staging.id]);
  expect(toolMessages(again)).toEqual([[staging.toolCallId, REJECTED_TOOL_RESULT]]);
  expect(await ledger(server)).toHaveLength(0);
  // Both approved: both run, and the thread shows the results, not the old rejection.
  const both = await answer(server, "t-mixed", [
    [prod, true],
    [staging, true],
  ]);
  expect(asked(both)).toEqual([]);
  const results = toolMessages(both);
  expect(results.map(([callId]) => callId)).toEqual([prod.toolCallId, staging.toolCallId]);
  expect(results.map(([, content]) => content)).not.toContain(REJECTED_TOOL_RESULT);
  expect((await ledger(server)).map((execution) => execution.args)).toEqual([
    { target: "prod" },
    { target: "staging" },
  ]);
});

test("af-lifecycle (1.7.0), after a mixed batch: both rejected takes both; nothing runs", async () => {
  const server = await start({ mode: "af-lifecycle" });
  const { prod, staging } = await askForTwo(server, "t-mixed-no");
  await answer(server, "t-mixed-no", [
    [prod, true],
    [staging, false],
  ]);
  const rejected = await answer(server, "t-mixed-no", [
    [prod, false],
    [staging, false],
  ]);
  expect(asked(rejected)).toEqual([]);
  expect(toolMessages(rejected)).toEqual([
    [prod.toolCallId, REJECTED_TOOL_RESULT],
    [staging.toolCallId, REJECTED_TOOL_RESULT],
  ]);
  expect(asked(await hydrate(server, "t-mixed-no"))).toEqual([]);
  expect(await ledger(server)).toHaveLength(0);
});

test("af-lifecycle (1.7.0), after a mixed batch: an approval it was given still counts when the other is approved", async () => {
  // Measured: prod approved and staging rejected, then prod rejected and staging
  // approved → both ran. The first approval of prod is kept by the server.
  const server = await start({ mode: "af-lifecycle" });
  const { prod, staging } = await askForTwo(server, "t-flipped");
  await answer(server, "t-flipped", [
    [prod, true],
    [staging, false],
  ]);
  const flipped = await answer(server, "t-flipped", [
    [prod, false],
    [staging, true],
  ]);
  expect(asked(flipped)).toEqual([]);
  expect(await ledger(server)).toHaveLength(2);
});

test("af-legacy (1.0.1), one approved and one rejected: the first runs; the other is answerable on its own but not shown by hydration", async () => {
  const server = await start({ mode: "af-legacy" });
  const { prod, staging } = await askForTwo(server, "t-legacy-mixed");
  const mixed = await answer(server, "t-legacy-mixed", [
    [prod, true],
    [staging, false],
  ]);
  expect(asked(mixed)).toEqual([]);
  expect(await ledger(server)).toHaveLength(1);
  expect(asked(await hydrate(server, "t-legacy-mixed"))).toEqual([]);
  const alone = await answer(server, "t-legacy-mixed", [[staging, false]]);
  expect(terminal(alone).type).toBe("RUN_FINISHED");
  expect(toolMessages(alone)).toContainEqual([staging.toolCallId, REJECTED_TOOL_RESULT]);
  expect(await ledger(server)).toHaveLength(1);
});
