import type { AgUiEvent, Message, RunAgentInput } from "@agui-outbox/core/protocol";
import { type BackgroundAgent, DeliveryDeferred, DeliveryRejected, scopedId } from "@agui-outbox/server";
import {
  asksToDeploy,
  DEPLOY_CANCELLED_TEXT,
  DEPLOY_REJECTED_TEXT,
  DEPLOY_TOOL,
  deployDone,
  deployIntro,
  deployQuestion,
  deployResponseSchema,
  deployTarget,
  SMALL_TALK_TEXT,
} from "../agent/deploy-script";
import { lastUserText } from "../agent/scripted-turns";
import { FaultAction, FaultPoint } from "../chaos/fault";
import { faultStep, type LibraryDeployDeps } from "./deploy-agent";

/** What the person's answer led to, read back from the deploy's tool message: the sentence to end with. */
function outcomeText(input: RunAgentInput): string {
  const result = [...input.messages].reverse().find((message) => message.role === "tool");
  let content: { target?: unknown; answer?: unknown } = {};
  try {
    content = JSON.parse(String(result?.content ?? "{}")) as typeof content;
  } catch {
    // The library wrote this content; an unreadable one reads as a deploy without a target.
  }
  if (content.answer === "rejected") return DEPLOY_REJECTED_TEXT;
  if (content.answer === "cancelled" || content.answer === "expired") return DEPLOY_CANCELLED_TEXT;
  return deployDone(typeof content.target === "string" ? content.target : "staging");
}

/**
 * The mock's scripted background run on the library's `background` steps: the
 * first response asks for one `deploy_change` call and ends with its approval
 * interrupt, so the run waits for the person (the answer's resume runs the
 * wrapped tool, as for a streamed run), `submit` is where the
 * `background-submit` fault lands (`fail` refuses the outputs for good, a
 * status defers them with that status), and the next response says it is
 * done (or that nothing was deployed). Each step's messages go to the thread's history, for hydration.
 */
export function libraryBackgroundDeploy(deps: LibraryDeployDeps): BackgroundAgent {
  const at = faultStep(deps);
  const say = (messageId: string, text: string): AgUiEvent[] => [
    { type: "TEXT_MESSAGE_START", messageId, role: "assistant" } as AgUiEvent,
    { type: "TEXT_MESSAGE_CONTENT", messageId, delta: text } as AgUiEvent,
    { type: "TEXT_MESSAGE_END", messageId } as AgUiEvent,
  ];
  return {
    async *respond({ input, step, identity }) {
      const { threadId } = input;
      const history = scopedId(identity, threadId);
      const messageId = deps.randomUUID();
      if (step >= 1) {
        const text = outcomeText(input);
        yield* say(messageId, text);
        await deps.history.append(history, [{ id: messageId, role: "assistant", content: text }]);
        return;
      }
      await deps.history.append(history, input.messages);
      const words = lastUserText(input.messages);
      if (!asksToDeploy(words)) {
        yield* say(messageId, SMALL_TALK_TEXT);
        await deps.history.append(history, [{ id: messageId, role: "assistant", content: SMALL_TALK_TEXT }]);
        return;
      }
      const target = deployTarget(words);
      const text = deployIntro(target);
      const callId = `call_${deps.randomUUID()}`;
      const args = JSON.stringify({ target });
      yield* say(messageId, text);
      yield {
        type: "TOOL_CALL_START",
        toolCallId: callId,
        toolCallName: DEPLOY_TOOL,
        parentMessageId: messageId,
      } as AgUiEvent;
      yield { type: "TOOL_CALL_ARGS", toolCallId: callId, delta: args } as AgUiEvent;
      yield { type: "TOOL_CALL_END", toolCallId: callId } as AgUiEvent;
      const question = {
        id: callId,
        reason: "tool_call",
        toolCallId: callId,
        message: deployQuestion(target),
        responseSchema: deployResponseSchema as unknown as Record<string, unknown>,
      };
      yield {
        type: "RUN_FINISHED",
        threadId,
        runId: input.runId,
        outcome: { type: "interrupt", interrupts: [question] },
      } as AgUiEvent;
      await deps.history.append(history, [
        {
          id: messageId,
          role: "assistant",
          content: text,
          toolCalls: [{ id: callId, type: "function", function: { name: DEPLOY_TOOL, arguments: args } }],
        } as Message,
      ]);
    },
    async submit({ threadId, results, identity }) {
      const fault = await at(FaultPoint.backgroundSubmit, threadId);
      if (fault?.action === FaultAction.fail) {
        throw new DeliveryRejected("the result could not be delivered");
      }
      if (fault !== undefined) {
        throw new DeliveryDeferred(
          "the tool outputs were not accepted yet",
          fault.status === 429 ? 429 : 503,
          fault.retryAfterMs,
        );
      }
      await deps.history.append(
        scopedId(identity, threadId),
        results.map(
          (result) =>
            ({
              id: result.messageId,
              role: "tool",
              toolCallId: result.toolCallId,
              content: result.content,
            }) as Message,
        ),
      );
    },
  };
}
