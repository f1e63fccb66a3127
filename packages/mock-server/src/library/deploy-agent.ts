import type { AgUiEvent, Interrupt, Message } from "@agui-outbox/core/protocol";
import { OutcomeCode } from "@agui-outbox/core/protocol";
import type {
  AfterClaim,
  AgentHandler,
  BeforeClaim,
  ContractServerOptions,
  Hydrate,
  ToolDefinition,
} from "@agui-outbox/server";
import { scopedId } from "@agui-outbox/server";
import {
  asksToDeploy,
  DEPLOY_CANCELLED_TEXT,
  DEPLOY_REJECTED_TEXT,
  DEPLOY_TOOL,
  DEPLOY_TOOL_DESCRIPTION,
  deployDone,
  deployIntro,
  deployIntroMany,
  deployQuestion,
  deployReceipt,
  deployResponseSchema,
  deployTargets,
  deployToolParameters,
  SMALL_TALK_TEXT,
} from "../agent/deploy-script";
import { lastUserText } from "../agent/scripted-turns";
import { delayOf, type Fault, FaultAction, FaultPoint } from "../chaos/fault";
import type { LedgerEntry } from "../state/mock-state";

/** A thread's messages as the person and the agent said them; hydration sends them back. */
export interface ThreadHistory {
  messages(threadId: string): Promise<readonly Message[]>;
  append(threadId: string, messages: readonly Message[]): Promise<void>;
}

export function memoryHistory(): ThreadHistory {
  const threads = new Map<string, Message[]>();
  return {
    async messages(threadId) {
      return threads.get(threadId) ?? [];
    },
    async append(threadId, messages) {
      const thread = threads.get(threadId) ?? [];
      const known = new Set(thread.map((message) => message.id));
      thread.push(...messages.filter((message) => !known.has(message.id)));
      threads.set(threadId, thread);
    },
  };
}

/** Armed faults, each taken once by whichever instance reaches its point (the mock's `FaultQueue`, or a table). */
export interface FaultSource {
  take(point: FaultPoint, threadId: string): Fault | undefined | Promise<Fault | undefined>;
}

export interface LibraryDeployDeps {
  readonly faults: FaultSource;
  /** Where the deploy's side effect lands: the truth the tests count. */
  readonly record: (entry: LedgerEntry) => Promise<void>;
  readonly history: ThreadHistory;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly randomUUID: () => string;
  readonly toolDurationMs: number;
  /** Kills this instance as a `crash` fault does: the library server is abandoned, its sockets closed. */
  readonly crash: (point: FaultPoint) => void;
}

/** What the mock hands to `createContractServer` for its scripted deploy agent. */
export type LibraryDeployAgent = Required<
  Pick<ContractServerOptions, "agent" | "beforeClaim" | "afterClaim" | "hydrate">
> & { readonly tools: Readonly<Record<string, ToolDefinition>> };

/**
 * The fault at a point, with the two actions every point shares carried out:
 * `crash` kills the instance there, `delay` pauses and goes on. What is
 * returned (fail, status) is the caller's to act on.
 */
export function faultStep(
  deps: Pick<LibraryDeployDeps, "faults" | "crash" | "sleep">,
): (point: FaultPoint, threadId: string) => Promise<Fault | undefined> {
  return async (point, threadId) => {
    const fault = await deps.faults.take(point, threadId);
    if (fault?.action === FaultAction.crash) {
      deps.crash(point);
      // The instance is abandoned: whatever this throw leads to, nothing more is written.
      throw new Error(`crashed at ${point}`);
    }
    if (fault?.action === FaultAction.delay) {
      await deps.sleep(delayOf(fault));
      return undefined;
    }
    return fault;
  };
}

/** A contract error with its code, as the library reports a thrown one. */
function failure(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * The mock's scripted deploy agent on `@agui-outbox/server`, with the mock's
 * fault points mapped onto the library's steps: `before-claim` on
 * `beforeClaim`, `after-claim` on `afterClaim`, `mid-tool` inside the tool
 * body, `after-tool` in the model turn after it. `crash` abandons the
 * instance at that point (nothing more is written, as in a dead process);
 * `delay` pauses there and goes on.
 */
export function libraryDeployAgent(deps: LibraryDeployDeps): LibraryDeployAgent {
  const at = faultStep(deps);

  const beforeClaim: BeforeClaim = async ({ threadId }) => {
    if ((await at(FaultPoint.beforeClaim, threadId)) === undefined) return undefined;
    return {
      refuse: {
        code: OutcomeCode.TOOL_UNAVAILABLE,
        message: "the approved tool is unavailable; nothing ran, retry later",
      },
    };
  };

  const afterClaim: AfterClaim = async ({ threadId }) => {
    if ((await at(FaultPoint.afterClaim, threadId)) !== undefined) {
      throw failure(
        OutcomeCode.UNAVAILABLE,
        "the agent failed after claiming the answer; retry with the same key",
      );
    }
  };

  const deploy: ToolDefinition = {
    description: DEPLOY_TOOL_DESCRIPTION,
    parameters: deployToolParameters as unknown as Record<string, unknown>,
    async execute(args, context) {
      await deps.record({
        threadId: context.threadId,
        toolCallId: context.toolCallId,
        name: DEPLOY_TOOL,
        args,
        at: new Date(deps.now()).toISOString(),
      });
      // Cut off after the effect with no result: the library makes it INDETERMINATE, never re-run.
      if ((await at(FaultPoint.midTool, context.threadId)) !== undefined) throw new Error("cut off mid-tool");
      await deps.sleep(deps.toolDurationMs);
      return deployReceipt(args);
    },
  };

  const agent: AgentHandler = async function* ({ input, answers, identity }) {
    const { threadId, runId } = input;
    // Each identity's thread has its own history: another user's same threadId is another thread.
    const history = scopedId(identity, threadId);
    const messageId = deps.randomUUID();
    const say = (text: string): AgUiEvent[] => [
      { type: "TEXT_MESSAGE_START", messageId, role: "assistant" } as AgUiEvent,
      { type: "TEXT_MESSAGE_CONTENT", messageId, delta: text } as AgUiEvent,
      { type: "TEXT_MESSAGE_END", messageId } as AgUiEvent,
    ];
    const finished = { type: "RUN_FINISHED", threadId, runId, outcome: { type: "success" } } as AgUiEvent;

    if (answers.length > 0) {
      const lines = answers.map((answer) =>
        answer.kind === "cancelled"
          ? DEPLOY_CANCELLED_TEXT
          : answer.kind === "executed"
            ? deployDone(String(answer.result.args.target))
            : DEPLOY_REJECTED_TEXT,
      );
      if (answers.some((answer) => answer.kind === "executed")) {
        if ((await at(FaultPoint.afterTool, threadId)) !== undefined) {
          throw failure(
            OutcomeCode.MODEL_CALL_FAILED,
            "the model call after the tool failed; the tool result is kept for a retry with the same key",
          );
        }
      }
      const text = lines.join(" ");
      const results = answers.flatMap((answer) =>
        answer.kind === "executed"
          ? [
              {
                id: answer.result.messageId,
                role: "tool",
                toolCallId: answer.result.toolCallId,
                content: answer.result.content,
              } as Message,
            ]
          : [],
      );
      yield* say(text);
      await deps.history.append(history, [...results, { id: messageId, role: "assistant", content: text }]);
      yield finished;
      return;
    }

    await deps.history.append(history, input.messages);
    const words = lastUserText(input.messages);
    if (!asksToDeploy(words)) {
      yield* say(SMALL_TALK_TEXT);
      await deps.history.append(history, [{ id: messageId, role: "assistant", content: SMALL_TALK_TEXT }]);
      yield finished;
      return;
    }
    const targets = deployTargets(words);
    const intro = targets.length === 1 ? deployIntro(targets[0] ?? "staging") : deployIntroMany(targets);
    yield* say(intro);
    const interrupts: Interrupt[] = [];
    const toolCalls: { id: string; type: "function"; function: { name: string; arguments: string } }[] = [];
    for (const target of targets) {
      const toolCallId = `call_${deps.randomUUID()}`;
      const argsJson = JSON.stringify({ target });
      yield {
        type: "TOOL_CALL_START",
        toolCallId,
        toolCallName: DEPLOY_TOOL,
        parentMessageId: messageId,
      } as AgUiEvent;
      yield { type: "TOOL_CALL_ARGS", toolCallId, delta: argsJson } as AgUiEvent;
      yield { type: "TOOL_CALL_END", toolCallId } as AgUiEvent;
      interrupts.push({
        id: toolCallId,
        reason: "tool_call",
        toolCallId,
        message: deployQuestion(target),
        responseSchema: deployResponseSchema as unknown as Record<string, unknown>,
      });
      toolCalls.push({
        id: toolCallId,
        type: "function",
        function: { name: DEPLOY_TOOL, arguments: argsJson },
      });
    }
    await deps.history.append(history, [
      { id: messageId, role: "assistant", content: intro, toolCalls } as Message,
    ]);
    yield { type: "RUN_FINISHED", threadId, runId, outcome: { type: "interrupt", interrupts } } as AgUiEvent;
  };

  const hydrate: Hydrate = async function* ({ input, identity }) {
    yield {
      type: "MESSAGES_SNAPSHOT",
      messages: [...(await deps.history.messages(scopedId(identity, input.threadId)))],
    } as AgUiEvent;
  };

  return { agent, tools: { [DEPLOY_TOOL]: deploy }, beforeClaim, afterClaim, hydrate };
}
