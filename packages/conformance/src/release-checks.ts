// What the real releases do where DESIGN.md has no rule for the server but the client's
// rules depend on it: the order of events on a resume, the interrupt's shape, what an
// identical retry is answered with, how a rejection is stored. Each row is one way an
// emulation once differed from the release it emulates; the test that compares every
// emulation with its release (packages/mock-server/test/interop/contract-checks.test.ts) would catch it again.
import { randomUUID } from "node:crypto";
import { OutcomeCode } from "@agui-outbox/core/protocol";
import type { ContractCheck } from "./check";
import {
  type Asked,
  answerNeverAsked,
  approval,
  approveWith,
  armFaults,
  askToDeploy,
  type CheckTarget,
  codeOf,
  executions,
  finished,
  hydrate,
  post,
  type RunReply,
  resume,
  types,
} from "./check-wire";

const frameAt = (reply: RunReply, type: string) =>
  reply.frames.find((frame) => frame.event.type === type)?.at;
const hasModelTurn = (reply: RunReply) => types(reply).includes("TEXT_MESSAGE_START");
const sequence = (reply: RunReply) =>
  reply.status >= 400
    ? `HTTP ${reply.status}`
    : types(reply)
        .filter((type) => !type.startsWith("TEXT_MESSAGE_") && type !== "MESSAGES_SNAPSHOT")
        .map((type) => (type === "RUN_ERROR" ? codeOf(reply) : type))
        .join(", ");

/** Asks for two deployments in one turn: two interrupts, answered together. */
async function askTwo(target: CheckTarget) {
  const threadId = `check-batch-${randomUUID().slice(0, 8)}`;
  const reply = await post(target, {
    threadId,
    runId: randomUUID(),
    messages: [{ id: randomUUID(), role: "user", content: target.ask?.two ?? "deploy to prod and staging" }],
  });
  const outcome = finished(reply)?.outcome as { interrupts?: Array<Record<string, unknown>> } | undefined;
  const asked = (outcome?.interrupts ?? []).map((interrupt) => ({
    threadId,
    interruptId: String(interrupt.id),
    responseSchema: (interrupt.responseSchema ?? {}) as Asked["responseSchema"],
    reply,
  }));
  return { threadId, asked };
}

/** The tool takes this long in the check that asks what arrives before it finishes. */
const SLOW_TOOL_MS = 1500;

export const RELEASE_CHECKS: readonly ContractCheck[] = [
  {
    id: "error-after-run-started",
    rule: "(release behaviour) an `APPROVAL_*` error on a resume comes after `RUN_STARTED`",
    async run(target) {
      const reply = await answerNeverAsked(target, "errorstart");
      const seen = types(reply);
      const after = seen[0] === "RUN_STARTED" && seen.includes("RUN_ERROR");
      return { pass: after, observed: sequence(reply) };
    },
  },
  {
    id: "started-before-tool",
    rule: "(release behaviour) a resume's `RUN_STARTED` arrives while the approved tool is still running",
    async run(target) {
      const asked = await askToDeploy(target, "startfirst");
      await armFaults(target, [
        { point: "mid-tool", action: "delay", delayMs: SLOW_TOOL_MS, threadId: asked.threadId },
      ]);
      const key = randomUUID();
      const reply = await post(target, resume(asked, approval(asked, true), key), key);
      const started = frameAt(reply, "RUN_STARTED");
      const result = frameAt(reply, "TOOL_CALL_RESULT") ?? frameAt(reply, "RUN_FINISHED");
      if (started === undefined || result === undefined) return { pass: false, observed: sequence(reply) };
      // The tool sleeps SLOW_TOOL_MS: sent before it, RUN_STARTED leads by about that much;
      // sent after it, the two frames leave together.
      const before = result - started >= SLOW_TOOL_MS / 2;
      return { pass: before, observed: before ? "before the tool" : "after the tool" };
    },
  },
  {
    id: "interrupt-id",
    rule: "(release behaviour) the interrupt's id is its tool call's id",
    async run(target) {
      const { reply, interruptId } = await askToDeploy(target, "ids");
      const outcome = finished(reply)?.outcome as { interrupts?: Array<Record<string, unknown>> } | undefined;
      const interrupt = outcome?.interrupts?.[0];
      const same = interrupt?.toolCallId === interruptId;
      const shape = interruptId.replace(
        /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/,
        "<uuid>",
      );
      return { pass: same, observed: same ? "the tool call id" : `\`${shape}\`` };
    },
  },
  {
    id: "schema-flat-argument",
    rule: "(release behaviour) the `responseSchema` declares the editable argument by name (`target`)",
    async run(target) {
      const asked = await askToDeploy(target, "schema");
      const declared = Object.keys(asked.responseSchema.properties ?? {});
      return { pass: declared.includes("target"), observed: declared.join(", ") };
    },
  },
  {
    id: "replay-no-model-turn",
    rule: "(release behaviour) an identical approval after success: the tool's result again, no new model turn",
    async run(target) {
      const { asked, key, input } = await approveWith(target, "replayturn");
      const again = await post(target, input, key);
      const count = await executions(target, asked.threadId);
      const ok = finished(again) !== undefined && !hasModelTurn(again) && count === 1;
      const turn = hasModelTurn(again) ? " + model turn" : "";
      return { pass: ok, observed: `${sequence(again)}${turn}, ${count} execution(s)` };
    },
  },
  {
    id: "reject-retry",
    rule: "(release behaviour) an identical reject after it settled: finished, no new model turn, nothing runs",
    async run(target) {
      const asked = await askToDeploy(target, "rejectretry");
      const key = randomUUID();
      const input = resume(asked, approval(asked, false), key);
      await post(target, input, key);
      const again = await post(target, input, key);
      const count = await executions(target, asked.threadId);
      const ok = finished(again) !== undefined && !hasModelTurn(again) && count === 0;
      const turn = hasModelTurn(again) ? " + model turn" : "";
      return { pass: ok, observed: `${sequence(again)}${turn}, ${count} execution(s)` };
    },
  },
  {
    id: "tool-unavailable",
    rule: "(release behaviour) the approved tool unavailable: `RUN_STARTED`, then `APPROVAL_TOOL_UNAVAILABLE`; the identical retry runs it once",
    async run(target) {
      const { asked, key, input, first } = await approveWith(target, "unavailable", {
        point: "before-claim",
        action: "fail",
      });
      const again = await post(target, input, key);
      const count = await executions(target, asked.threadId);
      const told = types(first)[0] === "RUN_STARTED" && codeOf(first) === OutcomeCode.TOOL_UNAVAILABLE;
      const ok = told && finished(again) !== undefined && count === 1;
      return {
        pass: ok,
        observed: `${sequence(first)}; retry ${finished(again) ? "finished" : codeOf(again)}, ${count} execution(s)`,
      };
    },
  },
  {
    id: "rejection-in-thread",
    rule: "(release behaviour) after a reject, the thread holds a tool message for the call (the rejection, not a result)",
    async run(target) {
      const asked = await askToDeploy(target, "rejectthread");
      const key = randomUUID();
      await post(target, resume(asked, approval(asked, false), key), key);
      const snapshot = (await hydrate(target, asked.threadId)).frames.find(
        (frame) => frame.event.type === "MESSAGES_SNAPSHOT",
      );
      const messages = (snapshot?.event.messages ?? []) as Array<{ role?: string; content?: unknown }>;
      const tool = messages.find((message) => message.role === "tool");
      return {
        pass: tool !== undefined,
        observed: tool === undefined ? "no tool message" : `tool message "${String(tool.content)}"`,
      };
    },
  },
  {
    id: "batch-every-entry",
    rule: "(release behaviour) one resume approving both interrupts of a turn runs both tools, a result for each",
    async run(target) {
      const { threadId, asked } = await askTwo(target);
      if (asked.length !== 2) return { pass: false, observed: `${asked.length} interrupt(s) asked` };
      const key = randomUUID();
      const entries = asked.map((one) => resume(one, approval(one, true), key).resume[0]);
      const reply = await post(target, { threadId, runId: randomUUID(), resume: entries }, key);
      const ran = await executions(target, threadId);
      const results = reply.frames.filter((frame) => frame.event.type === "TOOL_CALL_RESULT").length;
      const end = finished(reply) ? "finished" : codeOf(reply);
      return { pass: ran === 2 && results === 2, observed: `${ran} of 2 ran, ${results} result(s), ${end}` };
    },
  },
  {
    id: "batch-mixed",
    rule: "(release behaviour) one resume approving one interrupt and rejecting the other takes both: the approved tool runs, no question stays open",
    async run(target) {
      const { threadId, asked } = await askTwo(target);
      const [approved, rejected] = asked;
      if (approved === undefined || rejected === undefined)
        return { pass: false, observed: `${asked.length} interrupt(s) asked` };
      const key = randomUUID();
      const entries = [
        resume(approved, approval(approved, true), key).resume[0],
        resume(rejected, approval(rejected, false), key).resume[0],
      ];
      const reply = await post(target, { threadId, runId: randomUUID(), resume: entries }, key);
      const ran = await executions(target, threadId);
      // What the run ends asking, and what the thread shows open afterwards: the
      // same question under its own id, or another id.
      const named = (interrupts: readonly Record<string, unknown>[]) =>
        interrupts.map((interrupt) =>
          interrupt.id === rejected.interruptId
            ? "the rejected one (same id)"
            : interrupt.id === approved.interruptId
              ? "the approved one (same id)"
              : "another id",
        );
      const interruptsOf = (one: RunReply) =>
        (finished(one)?.outcome as { interrupts?: Record<string, unknown>[] } | undefined)?.interrupts ?? [];
      const askedAgain = named(interruptsOf(reply));
      const open = named(interruptsOf(await hydrate(target, threadId)));
      const end = finished(reply) ? "finished" : codeOf(reply);
      const asking = askedAgain.length > 0 ? `asking ${askedAgain.join(", ")}` : "asking nothing";
      return {
        pass: ran === 1 && open.length === 0,
        observed: `${ran} of 1 ran, ${end} ${asking}; open after: ${open.join(", ") || "none"}`,
      };
    },
  },
];
