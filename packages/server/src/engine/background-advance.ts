import { type AgUiEvent, type Interrupt, type Message, OutcomeCode } from "@agui-outbox/core/protocol";
import {
  type BackgroundCall,
  BackgroundCallState,
  type BackgroundRunRecord,
  lastSeqOf,
} from "../store/background-records";
import type { ContractStore } from "../store/contract-store";
import type { StoredToolResult } from "../store/records";
import { type BackgroundAgent, DeliveryDeferred, DeliveryRejected } from "./background-agent";
import { askCalls, interruptsOf, openQuestions, pause, questionsOf, readAnswers } from "./background-answers";
import { appendFrames, cutOff, fail, finish, finished, newToken, replaceCall } from "./background-steps";
import { identityPrefix } from "./ids";
import type { ResolvedServerOptions } from "./options";
import { assistantMessageOf, toolCallsOf } from "./tool-calls";

const CUT_OFF = "was cut off mid-execution; it may or may not have run, so it is not run again";
const FAILED_MID_RUN = "failed mid-run; whether it took effect is unknown, so it is not run again";

/** One poll holding the run's lease: `write` stores a whole new version, or throws when the lease was lost. */
export interface PollStep {
  readonly options: ResolvedServerOptions;
  readonly agent: BackgroundAgent;
  readonly store: ContractStore;
  readonly polledToken: string;
  readonly signal: AbortSignal;
  readonly identity: string | undefined;
  write(next: BackgroundRunRecord): Promise<BackgroundRunRecord>;
}

export type Advanced =
  | { readonly kind: "advanced"; readonly run: BackgroundRunRecord }
  | {
      readonly kind: "transient";
      readonly run: BackgroundRunRecord;
      readonly message: string;
      readonly status?: 429 | 503;
      readonly retryAfterMs?: number;
    };

/** A stage either ends the poll or hands the run on to the next stage. */
type Stage = Advanced | { readonly kind: "next"; readonly run: BackgroundRunRecord };

/** Answers applied, then the model's response, then its tools, then the submission: each stage once. */
export async function advance(start: BackgroundRunRecord, poll: PollStep): Promise<Advanced> {
  let run = start;
  for (const stage of [takeAnswers, respond, runTools]) {
    const done = await stage(run, poll);
    if (done.kind !== "next") return done;
    run = done.run;
  }
  return submit(run, poll);
}

async function takeAnswers(run: BackgroundRunRecord, poll: PollStep): Promise<Stage> {
  if (questionsOf(run).length === 0) return { kind: "next", run };
  const { store, write } = poll;
  const occurrences = await store.threadOccurrences(run.threadId);
  const answers = readAnswers(run, occurrences, await store.now(), poll.options.randomUUID);
  if (answers.kind === "waiting") {
    return { kind: "advanced", run: await write({ ...run, status: "interrupted", poll: null }) };
  }
  if (answers.kind === "indeterminate") {
    return { kind: "advanced", run: await write(cutOff(run, answers.index, poll.polledToken, CUT_OFF)) };
  }
  // The run goes on: a new AG-UI run on the thread, after the one that asked.
  const started = { type: "RUN_STARTED", threadId: run.threadId, runId: run.runId } as AgUiEvent;
  return {
    kind: "next",
    run: await write({ ...run, calls: answers.calls, frames: appendFrames(run, [started]) }),
  };
}

/** The model's response for this step; stored only once it is whole. */
async function respond(run: BackgroundRunRecord, poll: PollStep): Promise<Stage> {
  if (run.calls !== null) return { kind: "next", run };
  const { options, store, write, polledToken } = poll;
  const events: AgUiEvent[] = [];
  let asked: readonly Interrupt[] = [];
  try {
    const turn = { input: run.input, step: run.step, signal: poll.signal, identity: poll.identity };
    for await (const event of poll.agent.respond(turn)) {
      if (event.type === "RUN_FINISHED") asked = interruptsOf(event);
      if (event.type === "RUN_STARTED" || event.type === "RUN_FINISHED") continue;
      if (event.type === "RUN_ERROR") throw new Error("the model response ended in RUN_ERROR");
      events.push(event);
    }
  } catch {
    return { kind: "transient", run, message: "the model call failed; poll again with the same token" };
  }
  const requested: BackgroundCall[] = toolCallsOf(events).map((call) => ({
    ...call,
    state: BackgroundCallState.requested,
    result: null,
  }));
  const ttl = new Date((await store.now()) + options.interruptTtlMs).toISOString();
  const calls = asked.length === 0 ? requested : askCalls(requested, asked, run.runId, ttl);
  if (calls === undefined) {
    const why = "the model response asked a question that names none of its tool calls";
    return { kind: "advanced", run: await write(fail(run, polledToken, OutcomeCode.INVALID_REQUEST, why)) };
  }
  const assistant = assistantMessageOf(events, options.randomUUID);
  const input =
    assistant === undefined ? run.input : { ...run.input, messages: [...run.input.messages, assistant] };
  const stored = { ...run, frames: appendFrames(run, events), calls, input };
  if (calls.length === 0)
    return { kind: "advanced", run: await write(finish(stored, polledToken, finished(stored))) };
  if (asked.length === 0) return { kind: "next", run: await write(stored) };
  const paused = await write(pause(stored, newToken(options.randomUUID)));
  // After the write: a poll that dies in between leaves questions the next poll opens.
  await openQuestions(store, paused);
  return { kind: "advanced", run: paused };
}

async function runTools(start: BackgroundRunRecord, poll: PollStep): Promise<Stage> {
  const { options, write, polledToken, identity } = poll;
  let run = start;
  for (const [index, call] of (run.calls ?? []).entries()) {
    if (call.state === BackgroundCallState.executed) continue;
    if (call.state !== BackgroundCallState.requested) {
      // A poll died while this call ran and left no result: it may or may not have happened.
      return { kind: "advanced", run: await write(cutOff(run, index, polledToken, CUT_OFF)) };
    }
    const tool = options.tools[call.toolName];
    if (tool === undefined) {
      const why = `the tool ${call.toolName} is not registered`;
      return {
        kind: "advanced",
        run: await write(fail(run, polledToken, OutcomeCode.TOOL_UNAVAILABLE, why)),
      };
    }
    // EXECUTING is written before the body runs: a poll that finds it with no result never runs it again.
    run = await write(replaceCall(run, index, { ...call, state: BackgroundCallState.executing }));
    let value: unknown;
    try {
      value = await tool.execute(call.args, {
        threadId: run.threadId,
        interruptId: call.toolCallId,
        toolCallId: call.toolCallId,
        identity,
        // The occurrence is (response, call id, position): a model may reuse a call id in a later step.
        idempotencyKey: `${identityPrefix(identity)}${run.runId}/${run.step}:${call.toolCallId}:${index}`,
        signal: poll.signal,
      });
    } catch {
      return { kind: "advanced", run: await write(cutOff(run, index, polledToken, FAILED_MID_RUN)) };
    }
    const result: StoredToolResult = {
      toolCallId: call.toolCallId,
      messageId: options.randomUUID(),
      content: typeof value === "string" ? value : JSON.stringify(value ?? null),
      args: call.args,
    };
    const stored = replaceCall(run, index, { ...call, state: BackgroundCallState.executed, result });
    const event = { type: "TOOL_CALL_RESULT", ...toolMessage(result) } as unknown as AgUiEvent;
    run = await write({ ...stored, frames: appendFrames(stored, [event]) });
  }
  return { kind: "next", run };
}

/** Submits the stored results (again, after a failed submission: never re-executed). */
async function submit(run: BackgroundRunRecord, poll: PollStep): Promise<Advanced> {
  const { write, polledToken } = poll;
  const results = (run.calls ?? []).flatMap((call) => (call.result === null ? [] : [call.result]));
  try {
    await poll.agent.submit?.({
      runId: run.runId,
      threadId: run.threadId,
      step: run.step,
      results,
      signal: poll.signal,
      identity: poll.identity,
    });
  } catch (caught) {
    if (caught instanceof DeliveryRejected) {
      const why = `the tool outputs were refused for good after the tools ran: ${caught.message}`;
      const failed = fail(run, polledToken, OutcomeCode.BACKGROUND_TOOL_DELIVERY_REJECTED, why);
      return { kind: "advanced", run: await write(failed) };
    }
    const deferred =
      caught instanceof DeliveryDeferred
        ? {
            status: caught.status,
            ...(caught.retryAfterMs === undefined ? {} : { retryAfterMs: caught.retryAfterMs }),
          }
        : {};
    const message =
      "submitting the tool outputs failed after the tools ran; poll again with the same continuation token";
    return { kind: "transient", run, message, ...deferred };
  }
  const toolMessages = results.map((result) => {
    const { messageId, ...rest } = toolMessage(result);
    return { id: messageId, ...rest } as Message;
  });
  const next = newToken(poll.options.randomUUID);
  const input = { ...run.input, messages: [...run.input.messages, ...toolMessages] };
  const tokens = { ...run.tokens, [next]: lastSeqOf(run) };
  return {
    kind: "advanced",
    run: await write({ ...run, step: run.step + 1, calls: null, token: next, tokens, input, poll: null }),
  };
}

function toolMessage(result: StoredToolResult) {
  return {
    messageId: result.messageId,
    role: "tool" as const,
    toolCallId: result.toolCallId,
    content: result.content,
  };
}
