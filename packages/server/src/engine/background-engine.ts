import { createHash } from "node:crypto";
import {
  type AgUiEvent,
  type BackgroundStart,
  type Interrupt,
  type Message,
  MetadataKey,
  OutcomeCode,
  type RunAgentInput,
} from "@agui-outbox/core/protocol";
import {
  type BackgroundCall,
  BackgroundCallState,
  type BackgroundRunRecord,
  lastSeqOf,
} from "../store/background-records";
import type { ContractStore } from "../store/contract-store";
import type { StoredFrame, StoredToolResult } from "../store/records";
import { stampCursor } from "../store/release-claim";
import { type BackgroundAgent, DeliveryDeferred, DeliveryRejected } from "./background-agent";
import { askCalls, interruptsOf, openQuestions, questionsOf, readAnswers } from "./background-answers";
import {
  appendFrames,
  type BackgroundAnswer,
  cutOff,
  error,
  fail,
  finish,
  finished,
  parsePollRequest,
  pollInProgress,
  replaceCall,
  responseOf,
  runIdUsed,
  transient,
} from "./background-steps";
import { identityPrefix } from "./ids";
import type { ResolvedServerOptions } from "./options";
import { assistantMessageOf, toolCallsOf } from "./tool-calls";

export { type BackgroundAnswer, parsePollRequest, responseOf } from "./background-steps";

/** Another poll wrote the run while this one ran: it has the run now. */
class PollLost extends Error {}

const CUT_OFF = "was cut off mid-execution; it may or may not have run, so it is not run again";
const FAILED_MID_RUN = "failed mid-run; whether it took effect is unknown, so it is not run again";

/**
 * Background runs over the store, so any replica can take the next poll:
 *
 *   start ─▶ token₀ ─poll─▶ model response (stored) ─▶ each tool: EXECUTING ─▶ result stored ─▶ submit ─▶ token₁ ─poll─▶ … ─▶ no tool call: RUN_FINISHED
 *                              │                         submit throws → token₀ stays current; its re-poll submits the stored results again
 *                              └─ response ends in interrupts ─▶ calls ASKED, questions opened, RUN_FINISHED(interrupt), `interrupted`
 *                                   ─poll─▶ (nothing while any is open) ─▶ answers applied by resumes ─▶ RUN_STARTED, submit ─▶ …
 *                              found EXECUTING with no result (the poll died) → RUN_ERROR BACKGROUND_TOOL_RESULT_INDETERMINATE
 *
 * A poll holds a lease on the run (renewed while it works); every write names
 * the version it read, so a poll whose lease lapsed and was taken over can
 * never overwrite the poll that took over.
 */
export class BackgroundEngine {
  readonly #options: ResolvedServerOptions;
  readonly #agent: BackgroundAgent;
  /** The polls in flight on this instance, so {@link abandon} can stop them. */
  readonly #polls = new Set<AbortController>();
  #abandoned = false;

  constructor(options: ResolvedServerOptions, agent: BackgroundAgent) {
    this.#options = options;
    this.#agent = agent;
  }

  /**
   * Starts a run and answers 202 with its first token. A repeat under the same
   * `Idempotency-Key` (a retry after a lost answer) gets the run the first one
   * started, never a second run; another body under the key gets 422.
   */
  async start(
    input: RunAgentInput,
    raw: Buffer,
    key: string | undefined,
    pollPath: string,
    store: ContractStore = this.#options.store,
  ): Promise<BackgroundAnswer> {
    const { runId, threadId } = input;
    if (key !== undefined) {
      const bodyHash = createHash("sha256").update(raw).digest("hex");
      const record = await store.reserveKey({ key, bodyHash, runId, threadId });
      if (record.bodyHash !== bodyHash) {
        return error(
          422,
          OutcomeCode.IDEMPOTENCY_KEY_REUSED,
          "this Idempotency-Key was used with a different body; a new start needs a new key",
        );
      }
      const started = await store.background(record.runId);
      if (started !== undefined) return { status: 202, body: responseOf(started, 0) };
    }
    if ((await store.run(runId)) !== undefined) return runIdUsed();
    const token = this.#newToken();
    const start: BackgroundStart = { continuationToken: token, pollPath };
    const first: StoredFrame = {
      seq: 1,
      event: stampCursor(
        { type: "RUN_STARTED", threadId, runId, metadata: { [MetadataKey.background]: start } } as AgUiEvent,
        runId,
        1,
      ),
    };
    const created = await store.createBackground({
      runId,
      threadId,
      status: "queued",
      step: 0,
      token,
      finalToken: null,
      tokens: { [token]: 1 },
      input,
      calls: null,
      frames: [first],
      poll: null,
      error: null,
    });
    if (!created) {
      // Two starts under one key raced: the one that created the run answers for both.
      const winner = await store.background(runId);
      return winner === undefined || key === undefined
        ? runIdUsed()
        : { status: 202, body: responseOf(winner, 0) };
    }
    const run = await store.background(runId);
    return { status: 202, body: run === undefined ? null : responseOf(run, 0) };
  }

  /** Stops every poll in flight without writing again, as if the process died: their leases lapse. */
  abandon(): void {
    this.#abandoned = true;
    for (const poll of this.#polls) poll.abort();
  }

  /** `POST {base}/background/poll`: advances the run one step, or says why not. */
  async poll(
    raw: Buffer,
    store: ContractStore = this.#options.store,
    identity?: string,
  ): Promise<BackgroundAnswer> {
    const parsed = parsePollRequest(raw);
    if (!parsed.ok) return error(400, parsed.code, parsed.message);
    const token = parsed.token;
    const found = await store.backgroundByToken(token);
    if (found === undefined) {
      return error(
        404,
        OutcomeCode.BACKGROUND_TOKEN_UNKNOWN,
        "no background run holds this continuation token",
      );
    }
    const afterSeq = found.tokens[token] ?? 0;
    if (token !== found.token) {
      // The poll that ended the run may be repeated: its answer does not change.
      if (token === found.finalToken) return { status: 200, body: responseOf(found, afterSeq) };
      return error(
        409,
        OutcomeCode.BACKGROUND_TOKEN_STALE,
        "this continuation token was already advanced; poll with the newest one",
      );
    }
    const now = await store.now();
    if (found.poll !== null && found.poll.leaseUntil > now) return pollInProgress();
    if (found.status === "interrupted") {
      // Waiting for the person is read-only: no lease, no write, no events. The sweep
      // settles a resume that died mid-tool (INDETERMINATE), which nothing else would.
      await openQuestions(store, found);
      await store.sweep();
      const answers = readAnswers(
        found,
        await store.threadOccurrences(found.threadId),
        now,
        this.#options.randomUUID,
      );
      if (answers.kind === "waiting") return { status: 200, body: responseOf(found, afterSeq) };
    }
    const pollId = this.#options.randomUUID();
    let run: BackgroundRunRecord = {
      ...found,
      status: "in_progress",
      poll: { pollId, leaseUntil: now + this.#options.claimLeaseMs },
    };
    if (!(await store.updateBackground(run))) return pollInProgress();
    run = { ...run, version: run.version + 1 };

    const abort = new AbortController();
    this.#polls.add(abort);
    const stopRenewal = this.#options.clock.every(
      Math.max(10, Math.floor(this.#options.claimLeaseMs / 3)),
      () => {
        // A failed renewal lets the lease run down, as a dead poll's would.
        store.renewBackgroundPoll(found.runId, pollId, this.#options.claimLeaseMs).catch(() => {});
      },
    );
    const write = async (next: BackgroundRunRecord): Promise<BackgroundRunRecord> => {
      if (this.#abandoned) throw new PollLost();
      // The renewals moved the stored lease on; a write carries it on from now rather than back.
      const renewed =
        next.poll === null
          ? next
          : { ...next, poll: { pollId, leaseUntil: (await store.now()) + this.#options.claimLeaseMs } };
      if (!(await store.updateBackground(renewed))) throw new PollLost();
      return { ...renewed, version: renewed.version + 1 };
    };
    try {
      const step = await this.#advance(run, token, write, abort.signal, identity, store);
      if (step.kind === "transient") {
        await write({ ...step.run, poll: null });
        return transient(step.message, step.status, step.retryAfterMs);
      }
      return { status: 200, body: responseOf(step.run, afterSeq) };
    } catch (caught) {
      if (caught instanceof PollLost) return pollInProgress();
      throw caught;
    } finally {
      stopRenewal();
      abort.abort();
      this.#polls.delete(abort);
    }
  }

  async #advance(
    start: BackgroundRunRecord,
    polledToken: string,
    write: (next: BackgroundRunRecord) => Promise<BackgroundRunRecord>,
    signal: AbortSignal,
    identity: string | undefined,
    store: ContractStore,
  ): Promise<
    | { readonly kind: "advanced"; readonly run: BackgroundRunRecord }
    | {
        readonly kind: "transient";
        readonly run: BackgroundRunRecord;
        readonly message: string;
        readonly status?: 429 | 503;
        readonly retryAfterMs?: number;
      }
  > {
    let run = start;
    const { tools } = this.#options;
    if (questionsOf(run).length > 0) {
      const answers = readAnswers(
        run,
        await store.threadOccurrences(run.threadId),
        await store.now(),
        this.#options.randomUUID,
      );
      if (answers.kind === "waiting") {
        return { kind: "advanced", run: await write({ ...run, status: "interrupted", poll: null }) };
      }
      if (answers.kind === "indeterminate") {
        return { kind: "advanced", run: await write(cutOff(run, answers.index, polledToken, CUT_OFF)) };
      }
      // The run goes on: a new AG-UI run on the thread, after the one that asked.
      const started = { type: "RUN_STARTED", threadId: run.threadId, runId: run.runId } as AgUiEvent;
      run = await write({ ...run, calls: answers.calls, frames: appendFrames(run, [started]) });
    }
    if (run.calls === null) {
      // The model's response for this step; stored only once it is whole.
      const events: AgUiEvent[] = [];
      let asked: readonly Interrupt[] = [];
      try {
        for await (const event of this.#agent.respond({
          input: run.input,
          step: run.step,
          signal,
          identity,
        })) {
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
      const ttl = new Date((await store.now()) + this.#options.interruptTtlMs).toISOString();
      const calls = asked.length === 0 ? requested : askCalls(requested, asked, run.runId, ttl);
      if (calls === undefined) {
        const why = "the model response asked a question that names none of its tool calls";
        return {
          kind: "advanced",
          run: await write(fail(run, polledToken, OutcomeCode.INVALID_REQUEST, why)),
        };
      }
      const assistant = assistantMessageOf(events, this.#options.randomUUID);
      run = {
        ...run,
        frames: appendFrames(run, events),
        calls,
        input:
          assistant === undefined
            ? run.input
            : { ...run.input, messages: [...run.input.messages, assistant] },
      };
      if (calls.length === 0) {
        return { kind: "advanced", run: await write(finish(run, polledToken, finished(run))) };
      }
      if (asked.length > 0) {
        run = await write(this.#pause(run));
        // After the write: a poll that dies in between leaves questions the next poll opens.
        await openQuestions(store, run);
        return { kind: "advanced", run };
      }
      run = await write(run);
    }

    const calls = run.calls ?? [];
    for (const [index, call] of calls.entries()) {
      if (call.state === BackgroundCallState.executed) continue;
      if (call.state !== BackgroundCallState.requested) {
        // A poll died while this call ran and left no result: it may or may not have happened.
        return { kind: "advanced", run: await write(cutOff(run, index, polledToken, CUT_OFF)) };
      }
      const tool = tools[call.toolName];
      if (tool === undefined) {
        return {
          kind: "advanced",
          run: await write(
            fail(
              run,
              polledToken,
              OutcomeCode.TOOL_UNAVAILABLE,
              `the tool ${call.toolName} is not registered`,
            ),
          ),
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
          signal,
        });
      } catch {
        return { kind: "advanced", run: await write(cutOff(run, index, polledToken, FAILED_MID_RUN)) };
      }
      const result: StoredToolResult = {
        toolCallId: call.toolCallId,
        messageId: this.#options.randomUUID(),
        content: typeof value === "string" ? value : JSON.stringify(value ?? null),
        args: call.args,
      };
      const stored = replaceCall(run, index, { ...call, state: BackgroundCallState.executed, result });
      run = await write({
        ...stored,
        frames: appendFrames(stored, [
          {
            type: "TOOL_CALL_RESULT",
            messageId: result.messageId,
            toolCallId: result.toolCallId,
            content: result.content,
            role: "tool",
          } as AgUiEvent,
        ]),
      });
    }

    // Submit the stored results (again, after a failed submission: never re-executed).
    const results = (run.calls ?? []).flatMap((call) => (call.result === null ? [] : [call.result]));
    try {
      await this.#agent.submit?.({
        runId: run.runId,
        threadId: run.threadId,
        step: run.step,
        results,
        signal,
        identity,
      });
    } catch (caught) {
      if (caught instanceof DeliveryRejected) {
        return {
          kind: "advanced",
          run: await write(
            fail(
              run,
              polledToken,
              OutcomeCode.BACKGROUND_TOOL_DELIVERY_REJECTED,
              `the tool outputs were refused for good after the tools ran: ${caught.message}`,
            ),
          ),
        };
      }
      return {
        kind: "transient",
        run,
        message:
          "submitting the tool outputs failed after the tools ran; poll again with the same continuation token",
        ...(caught instanceof DeliveryDeferred
          ? {
              status: caught.status,
              ...(caught.retryAfterMs === undefined ? {} : { retryAfterMs: caught.retryAfterMs }),
            }
          : {}),
      };
    }
    const toolMessages: Message[] = results.map(
      (result) =>
        ({
          id: result.messageId,
          role: "tool",
          toolCallId: result.toolCallId,
          content: result.content,
        }) as Message,
    );
    const next = this.#newToken();
    return {
      kind: "advanced",
      run: await write({
        ...run,
        step: run.step + 1,
        calls: null,
        token: next,
        tokens: { ...run.tokens, [next]: lastSeqOf(run) },
        input: { ...run.input, messages: [...run.input.messages, ...toolMessages] },
        poll: null,
      }),
    };
  }

  /** Ends the step's AG-UI run with its questions; the next token's polls start after them. */
  #pause(run: BackgroundRunRecord): BackgroundRunRecord {
    const asking = {
      type: "RUN_FINISHED",
      threadId: run.threadId,
      runId: run.runId,
      outcome: { type: "interrupt", interrupts: questionsOf(run) },
    } as AgUiEvent;
    const paused = {
      ...run,
      status: "interrupted" as const,
      frames: appendFrames(run, [asking]),
      poll: null,
    };
    const next = this.#newToken();
    return { ...paused, token: next, tokens: { ...run.tokens, [next]: lastSeqOf(paused) } };
  }

  #newToken(): string {
    return `bgt_${this.#options.randomUUID()}`;
  }
}
