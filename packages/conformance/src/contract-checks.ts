// DESIGN.md's recovery contract, checked over plain HTTP against any AG-UI server; a
// server with a ledger and a fault hook (the mock's `/__ledger`, `/__chaos`) can be
// judged on every check, one without them on the checks that need neither. Deliberately independent of the SDK
// (a bare SSE reader, hand-built requests), so it judges servers, not our client.
// `npm run docs:interop` and `agui-outbox-conformance` print the results as a table.
import { randomUUID } from "node:crypto";
import { AgentRoute, Header, MetadataKey, OutcomeCode } from "@agui-outbox/core/protocol";
import type { ContractCheck } from "./check";
import {
  agentEndpoint,
  answerNeverAsked,
  approval,
  approveWith,
  armFaults,
  askToDeploy,
  type CheckTarget,
  codeOf,
  executions,
  executionsAfterCut,
  executionsSeen,
  finished,
  hydrate,
  metadataOf,
  post,
  readFrames,
  resume,
  showsToolResult,
  types,
} from "./check-wire";
import { RELEASE_CHECKS } from "./release-checks";

export type { CheckResult, ContractCheck } from "./check";
export type { CheckTarget } from "./check-wire";

export const CONTRACT_CHECKS: readonly ContractCheck[] = [
  {
    id: "capabilities",
    rule: "`GET /agent/capabilities` advertises `x-recovery`",
    async run(target) {
      const response = await fetch(`${agentEndpoint(target)}${AgentRoute.capabilities}`);
      if (!response.ok) return { pass: false, observed: `HTTP ${response.status}` };
      const body = (await response.json()) as { custom?: Record<string, unknown> };
      const advertised = body.custom?.[MetadataKey.recovery] !== undefined;
      return { pass: advertised, observed: advertised ? "x-recovery present" : "no x-recovery" };
    },
  },
  {
    id: "cursors",
    rule: "every event has an SSE `id: <runId>:<seq>`",
    async run(target) {
      const { reply } = await askToDeploy(target, "cursors");
      const withId = reply.frames.filter((frame) => frame.id !== undefined).length;
      return {
        pass: withId === reply.frames.length,
        observed: `${withId} of ${reply.frames.length} with id`,
      };
    },
  },
  {
    id: "claim-ack",
    rule: "a resume's `RUN_STARTED` acknowledges the claim (`x-resume.ack`)",
    async run(target) {
      const { first } = await approveWith(target, "ack");
      const started = first.frames.find((frame) => frame.event.type === "RUN_STARTED")?.event;
      const ack = metadataOf(started, MetadataKey.resume)?.ack;
      return { pass: ack === "claimed", observed: ack === undefined ? "no ack" : `ack ${String(ack)}` };
    },
  },
  {
    id: "execute-once",
    rule: "an approval runs the tool once and finishes the run",
    async run(target) {
      const { asked, first } = await approveWith(target, "once");
      const count = await executions(target, asked.threadId);
      const ok = count === 1 && finished(first) !== undefined;
      return { pass: ok, observed: `${count} execution(s), ${finished(first) ? "finished" : codeOf(first)}` };
    },
  },
  {
    id: "replay-identical",
    rule: "an identical resume after success is answered from the record: no second execution",
    async run(target) {
      const { asked, key, input } = await approveWith(target, "replay");
      const again = await post(target, input, key);
      const count = await executions(target, asked.threadId);
      const ok = count === 1 && finished(again) !== undefined;
      return { pass: ok, observed: `${count} execution(s), ${finished(again) ? "finished" : codeOf(again)}` };
    },
  },
  {
    id: "replay-marked",
    rule: "that replay is marked `x-resume.replayed` on `RUN_FINISHED`",
    async run(target) {
      const { key, input } = await approveWith(target, "marked");
      const again = await post(target, input, key);
      const replayed = metadataOf(finished(again), MetadataKey.resume)?.replayed === true;
      return { pass: replayed, observed: replayed ? "marked" : "not marked" };
    },
  },
  {
    id: "already-resolved",
    rule: "a different decision after success → `APPROVAL_RESUME_ALREADY_RESOLVED`",
    async run(target) {
      const { asked } = await approveWith(target, "other");
      const key = randomUUID();
      const other = await post(target, resume(asked, approval(asked, false), key), key);
      const count = await executions(target, asked.threadId);
      const code = codeOf(other);
      return { pass: code === OutcomeCode.ALREADY_RESOLVED && count === 1, observed: code };
    },
  },
  {
    id: "key-reuse",
    rule: "the same key with a different body → HTTP 422 `IDEMPOTENCY_KEY_REUSED`",
    async run(target) {
      const { asked, key } = await approveWith(target, "reuse");
      const other = await post(target, resume(asked, approval(asked, false), key), key);
      const code = other.status === 422 && other.body.includes(OutcomeCode.IDEMPOTENCY_KEY_REUSED);
      return { pass: code, observed: codeOf(other) };
    },
  },
  {
    id: "key-required",
    rule: "a resume without `Idempotency-Key` → HTTP 400",
    async run(target) {
      const asked = await askToDeploy(target, "nokey");
      const reply = await post(target, resume(asked, approval(asked, true), randomUUID()));
      const count = await executionsSeen(target, asked.threadId);
      return { pass: reply.status === 400, observed: `${codeOf(reply)}, ${count}` };
    },
  },
  {
    id: "model-failure-retry",
    rule: "after a failure following the tool, the identical retry re-uses the stored result and finishes",
    async run(target) {
      const { asked, key, input, first } = await approveWith(target, "modelfail", {
        point: "after-tool",
        action: "fail",
      });
      const again = await post(target, input, key);
      const count = await executions(target, asked.threadId);
      const ok = count === 1 && finished(again) !== undefined;
      return {
        pass: ok,
        observed: `first ${codeOf(first)}; retry ${finished(again) ? "finished" : codeOf(again)}, ${count} execution(s)`,
      };
    },
  },
  {
    id: "model-failure-report",
    rule: "that failure arrives after `RUN_STARTED` and the tool result: the client can tell the tool ran",
    async run(target) {
      const { first } = await approveWith(target, "modelreport", { point: "after-tool", action: "fail" });
      const seen = types(first);
      const told = seen.includes("RUN_STARTED") && seen.includes("TOOL_CALL_RESULT");
      return { pass: told, observed: seen.join(", ") };
    },
  },
  {
    id: "model-failure-thread",
    // A contract server rolls the occurrence back instead (model-failure-retry).
    contract: false,
    rule: "after that failure, the thread (hydration) shows the tool's result (what the rules for servers without the contract read)",
    async run(target) {
      const { asked } = await approveWith(target, "modelthread", { point: "after-tool", action: "fail" });
      const shown = showsToolResult(await hydrate(target, asked.threadId));
      return { pass: shown, observed: shown ? "result in the thread" : "no result in the thread" };
    },
  },
  {
    id: "drop-retry",
    rule: "after the connection drops past the tool result, the identical retry does not run it again",
    async run(target) {
      const { asked, key, input } = await approveWith(target, "drop", {
        point: "mid-stream",
        action: "drop",
        afterEvents: 2,
      });
      const again = await post(target, input, key);
      const count = await executionsAfterCut(target, asked.threadId);
      return {
        pass: count === 1,
        observed: `retry ${finished(again) ? "finished" : codeOf(again)}, ${count} execution(s)`,
      };
    },
  },
  {
    id: "reattach",
    rule: "`GET /agent/runs/{runId}/events` with `Last-Event-ID` re-delivers the rest of a run",
    async run(target) {
      const { input } = await approveWith(target, "reattach");
      const response = await fetch(`${agentEndpoint(target)}${AgentRoute.runEvents(String(input.runId))}`, {
        headers: { accept: "text/event-stream", [Header.lastEventId]: `${input.runId}:1` },
      });
      if (!response.ok) return { pass: false, observed: `HTTP ${response.status}` };
      const { frames } = await readFrames(response);
      const ok = frames.length > 0 && frames.every((frame) => frame.id !== `${input.runId}:1`);
      return { pass: ok, observed: `${frames.length} event(s) after the cursor` };
    },
  },
  {
    id: "run-status",
    rule: "`GET /agent/runs/{runId}` answers the run's status",
    async run(target) {
      const { input } = await approveWith(target, "status");
      const response = await fetch(`${agentEndpoint(target)}${AgentRoute.runStatus(String(input.runId))}`);
      return { pass: response.ok, observed: `HTTP ${response.status}` };
    },
  },
  {
    id: "not-found",
    rule: "an id never pending in the thread → `APPROVAL_RESUME_NOT_FOUND`",
    async run(target) {
      const code = codeOf(await answerNeverAsked(target, "unknown"));
      return { pass: code === OutcomeCode.NOT_FOUND, observed: code };
    },
  },
  {
    id: "concurrent-duplicate",
    rule: "two identical resumes at once: one execution; the other `…_IN_PROGRESS` or the replay",
    async run(target) {
      const asked = await askToDeploy(target, "concurrent");
      // The tool takes a second, and the duplicate arrives while it runs.
      await armFaults(target, [
        { point: "mid-tool", action: "delay", delayMs: 1000, threadId: asked.threadId },
      ]);
      const key = randomUUID();
      const input = resume(asked, approval(asked, true), key);
      const first = post(target, input, key);
      // The duplicate goes once the first is inside the tool (the ledger records on entry).
      await toolEntered(target, asked.threadId);
      const replies = await Promise.all([first, post(target, input, key)]);
      const count = await executions(target, asked.threadId);
      const answers = replies.map((reply) => (finished(reply) ? "finished" : codeOf(reply)));
      const acceptable = answers.every(
        (answer) => answer === "finished" || answer === OutcomeCode.IN_PROGRESS,
      );
      return { pass: count === 1 && acceptable, observed: `${answers.join(" + ")}, ${count} execution(s)` };
    },
  },
];

/** Every row of docs/interop.md: the contract's checks, then the releases' behaviour. */
export const SERVER_CHECKS: readonly ContractCheck[] = [...CONTRACT_CHECKS, ...RELEASE_CHECKS];

/** Polls the ledger (bounded) until the thread's tool has been entered. */
async function toolEntered(target: CheckTarget, threadId: string): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    if ((await executions(target, threadId)) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("the tool was never entered");
}
