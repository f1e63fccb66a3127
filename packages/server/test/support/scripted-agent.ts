import type { AgUiEvent } from "@agui-outbox/core/protocol";
import { OutcomeCode } from "@agui-outbox/core/protocol";
import type { AgentHandler, ToolDefinition } from "../../src/index";
import type { FaultSource } from "./postgres-faults";

/** Where the deploy tool's side effect lands: the truth a test asserts. */
export interface Ledger {
  record(entry: { threadId: string; toolCallId: string; target: string }): Promise<void>;
  entries(threadId?: string): Promise<{ threadId: string; toolCallId: string; target: string }[]>;
}

export function memoryLedger(): Ledger {
  const rows: { threadId: string; toolCallId: string; target: string }[] = [];
  return {
    async record(entry) {
      rows.push(entry);
    },
    async entries(threadId) {
      return rows.filter((row) => threadId === undefined || row.threadId === threadId);
    },
  };
}

export const DEPLOY_RESPONSE_SCHEMA = {
  type: "object",
  properties: {
    approved: { type: "boolean" },
    editedArgs: { type: "object", properties: { target: { type: "string" } } },
  },
  required: ["approved"],
};

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * A scripted agent with one tool that needs approval, driven by the words of
 * the user's message (so every replica behaves the same without shared memory):
 * `deploy <target>` asks to deploy; `[slow-tool]` (or `[slow-tool:ms]`) makes the tool hang after its
 * effect; `[tool-throws]` makes it fail after its effect; `[fail-model-once]`
 * fails the model turn after a fresh tool run (a retry reuses the result and
 * passes); `[slow-model]` (or `[slow-model:ms]`) holds the model turn after a fresh tool run;
 * `[slow-text]` streams its reply slowly. Armed faults (the mock server's `mid-tool` delay and
 * `after-tool` fail) are taken from `faults`, once each, by whichever replica runs the step.
 */
export function scriptedDeployAgent(
  ledger: Ledger,
  timing: { holdMs: number } = { holdMs: 30_000 },
  faults?: FaultSource,
) {
  const deploy: ToolDefinition = {
    description: "Deploys a change to a target environment",
    parameters: { type: "object", properties: { target: { type: "string" } }, required: ["target"] },
    async execute(args, context) {
      const flags = String(args.flags ?? "");
      await ledger.record({
        threadId: context.threadId,
        toolCallId: context.toolCallId,
        target: String(args.target),
      });
      const hold = await faults?.take(context.threadId, "mid-tool");
      if (hold?.action === "delay") await sleep(hold.delayMs ?? 1_000, context.signal);
      const slowTool = /\[slow-tool(?::(\d+))?\]/.exec(flags);
      if (slowTool !== null) await sleep(Number(slowTool[1] ?? timing.holdMs), context.signal);
      if (flags.includes("[tool-throws]")) throw new Error("the deploy API timed out");
      return `deployed to ${String(args.target)}`;
    },
  };

  const agent: AgentHandler = async function* ({ input, answers, signal }) {
    const { threadId, runId } = input;
    const text = (id: string, parts: string[]): AgUiEvent[] => [
      { type: "TEXT_MESSAGE_START", messageId: id, role: "assistant" } as AgUiEvent,
      ...parts.map((delta) => ({ type: "TEXT_MESSAGE_CONTENT", messageId: id, delta }) as AgUiEvent),
      { type: "TEXT_MESSAGE_END", messageId: id } as AgUiEvent,
    ];
    if (answers.length > 0) {
      const executed = answers.flatMap((answer) => (answer.kind === "executed" ? [answer] : []));
      const flags = executed.map((answer) => String(answer.result.args.flags ?? "")).join(" ");
      const fresh = executed.some((answer) => !answer.reused);
      if (fresh && flags.includes("[fail-model-once]")) throw new Error("the model call failed");
      const afterTool = executed.length > 0 ? await faults?.take(threadId, "after-tool") : undefined;
      if (afterTool?.action === "fail") {
        throw Object.assign(new Error("the model call after the tool failed; retry with the same key"), {
          code: OutcomeCode.MODEL_CALL_FAILED,
        });
      }
      const slowModel = /\[slow-model(?::(\d+))?\]/.exec(flags);
      if (fresh && slowModel !== null) await sleep(Number(slowModel[1] ?? timing.holdMs), signal);
      const reply =
        executed.length > 0 ? executed.map((answer) => answer.result.content).join("; ") : "Not deployed.";
      yield* text(`reply-${runId}`, [reply]);
      yield { type: "RUN_FINISHED", threadId, runId, outcome: { type: "success" } } as AgUiEvent;
      return;
    }
    const said = input.messages.at(-1);
    const words = typeof said?.content === "string" ? said.content : "";
    const match = /deploy (?:to )?(\S+)/.exec(words);
    yield { type: "RUN_STARTED", threadId, runId } as AgUiEvent;
    if (words.includes("[slow-text]")) {
      const id = `text-${runId}`;
      yield { type: "TEXT_MESSAGE_START", messageId: id, role: "assistant" } as AgUiEvent;
      for (let part = 0; part < 6; part += 1) {
        await sleep(150, signal);
        yield { type: "TEXT_MESSAGE_CONTENT", messageId: id, delta: `part ${part} ` } as AgUiEvent;
      }
      yield { type: "TEXT_MESSAGE_END", messageId: id } as AgUiEvent;
    }
    if (match === null) {
      yield* text(`text-${runId}-reply`, ["Say `deploy <target>`."]);
      yield { type: "RUN_FINISHED", threadId, runId, outcome: { type: "success" } } as AgUiEvent;
      return;
    }
    const toolCallId = `call-${runId}`;
    yield { type: "TOOL_CALL_START", toolCallId, toolCallName: "deploy" } as AgUiEvent;
    yield {
      type: "TOOL_CALL_ARGS",
      toolCallId,
      delta: JSON.stringify({ target: match[1], flags: words }),
    } as AgUiEvent;
    yield { type: "TOOL_CALL_END", toolCallId } as AgUiEvent;
    yield {
      type: "RUN_FINISHED",
      threadId,
      runId,
      outcome: {
        type: "interrupt",
        interrupts: [
          {
            id: `approve-${toolCallId}`,
            reason: "tool_approval",
            toolCallId,
            message: `Deploy to ${match[1]}?`,
            responseSchema: DEPLOY_RESPONSE_SCHEMA,
          },
        ],
      },
    } as AgUiEvent;
  };

  return { agent, tools: { deploy } };
}
