import type { AgUiEvent } from "@agui-outbox/core/protocol";
import {
  type BackgroundAgent,
  type BackgroundSubmission,
  DeliveryDeferred,
  DeliveryRejected,
} from "../../src/index";
import type { FaultSource } from "./postgres-faults";

/**
 * The background side of the scripted deploy agent: step 0 answers
 * `deploy <target>` with one `deploy` tool call (the user's words as its
 * `flags`, so `[slow-tool]` holds the tool; `[ask]` ends the response with the
 * call's approval interrupt), step 1 reports the receipt. Each
 * submission takes a `background-submit` fault armed for the thread: `status`
 * fails it (transient: the token stays current), `rate-limited` defers it with
 * 429 and a 2.5 s `Retry-After`, `fail` refuses it for good.
 */
export function scriptedBackgroundAgent(faults?: FaultSource): BackgroundAgent & {
  readonly submissions: BackgroundSubmission[];
} {
  const submissions: BackgroundSubmission[] = [];
  const text = (id: string, words: string): AgUiEvent[] => [
    { type: "TEXT_MESSAGE_START", messageId: id, role: "assistant" } as AgUiEvent,
    { type: "TEXT_MESSAGE_CONTENT", messageId: id, delta: words } as AgUiEvent,
    { type: "TEXT_MESSAGE_END", messageId: id } as AgUiEvent,
  ];
  return {
    submissions,
    *respond({ input, step }) {
      const { runId } = input;
      if (step > 0) {
        const receipt = input.messages.filter((message) => message.role === "tool").at(-1);
        yield* text(`done-${runId}-${step}`, `Done: ${String(receipt?.content ?? "")}`);
        return;
      }
      const said = input.messages.filter((message) => message.role === "user").at(-1);
      const words = typeof said?.content === "string" ? said.content : "";
      const match = /deploy (?:to )?(\S+)/.exec(words);
      if (match === null) {
        yield* text(`text-${runId}`, "Say `deploy <target>`.");
        return;
      }
      const toolCallId = `call-${runId}`;
      yield* text(`intro-${runId}`, `Deploying to ${match[1]}.`);
      yield { type: "TOOL_CALL_START", toolCallId, toolCallName: "deploy" } as AgUiEvent;
      yield {
        type: "TOOL_CALL_ARGS",
        toolCallId,
        delta: JSON.stringify({ target: match[1], flags: words }),
      } as AgUiEvent;
      yield { type: "TOOL_CALL_END", toolCallId } as AgUiEvent;
      if (words.includes("[ask]")) {
        const interrupts = [{ id: `ask-${runId}`, reason: "tool_call", toolCallId, message: "Deploy?" }];
        yield {
          type: "RUN_FINISHED",
          threadId: input.threadId,
          runId,
          outcome: { type: "interrupt", interrupts },
        } as AgUiEvent;
      }
    },
    async submit(submission) {
      submissions.push(submission);
      const fault = await faults?.take(submission.threadId, "background-submit");
      if (fault?.action === "fail") throw new DeliveryRejected("the model refused the tool outputs");
      if (fault?.action === "rate-limited")
        throw new DeliveryDeferred("rate limited by the model", 429, 2_500);
      if (fault !== undefined) throw new Error("429 rate limited while submitting the tool outputs");
    },
  };
}

/** A fault source for one process: faults armed in a list, taken once each. */
export function listFaults(): FaultSource & { arm(threadId: string, point: string, action: string): void } {
  const armed: { threadId: string; point: string; action: string }[] = [];
  return {
    arm(threadId, point, action) {
      armed.push({ threadId, point, action });
    },
    async take(threadId, point) {
      const index = armed.findIndex((fault) => fault.threadId === threadId && fault.point === point);
      if (index < 0) return undefined;
      const [fault] = armed.splice(index, 1);
      return fault === undefined ? undefined : { point: fault.point, action: fault.action };
    },
  };
}

/** The body that starts a background run. */
export function backgroundStart(threadId: string, runId: string, words: string) {
  return {
    threadId,
    runId,
    messages: [{ id: `m-${runId}`, role: "user", content: words }],
    tools: [],
    context: [],
    forwardedProps: { background: true },
  };
}
