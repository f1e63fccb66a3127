import { createHash } from "node:crypto";
import {
  type AgUiEvent,
  type BackgroundResponse,
  type BackgroundStart,
  MetadataKey,
  OutcomeCode,
  type RunAgentInput,
} from "@agui-outbox/core/protocol";
import { parsePollRequest } from "@agui-outbox/server";
import {
  asksToDeploy,
  DEPLOY_TOOL,
  deployDone,
  deployIntro,
  deployReceipt,
  deployTarget,
  SMALL_TALK_TEXT,
} from "../agent/deploy-script";
import { emitText, lastUserText, threadOf } from "../agent/scripted-turns";
import { delayOf, type Fault, FaultAction, FaultPoint } from "../chaos/fault";
import type { FaultQueue } from "../chaos/fault-queue";
import { injectedStatusError } from "../chaos/injected-status";
import { ServerGone } from "../engine/run-failure";
import type { ResolvedOptions } from "../options";
import type { Attempt, RunHub } from "../runs/run-hub";
import { type BackgroundRun, CallState, type MockState } from "../state/mock-state";

/** Where background runs are polled, relative to the server root. */
export const BACKGROUND_POLL_PATH = "/agent/background/poll";

export type BackgroundAnswer =
  | {
      readonly kind: "json";
      readonly status: number;
      readonly body: unknown;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | { readonly kind: "crashed" };

export interface BackgroundEngineDeps {
  readonly options: ResolvedOptions;
  readonly faults: FaultQueue;
  readonly hub: RunHub;
  readonly state: () => MockState;
  readonly save: () => void;
  readonly aliveCheck: () => () => boolean;
  readonly crashAt: (point: string) => void;
}

type StepResult =
  | { readonly kind: "advanced" }
  | { readonly kind: "transient"; readonly status: number; readonly retryAfterMs: number | undefined };

function error(
  status: number,
  code: string,
  message: string,
  headers?: Record<string, string>,
): BackgroundAnswer {
  return headers === undefined
    ? { kind: "json", status, body: { error: { code, message } } }
    : { kind: "json", status, body: { error: { code, message } }, headers };
}

/**
 * Background runs in `fixed` mode, shaped after background responses with
 * continuation tokens: each poll advances the run one step. The step with tool
 * calls executes them and then submits their outputs; the two halves are kept
 * apart per call occurrence, so a poll that failed after the tool ran leaves a
 * stored result that the next poll (same token) resubmits instead of running
 * the tool again.
 *
 *   start ─▶ token₀ ─poll─▶ text, tool call, execute (ledger), result stored, submit ─▶ token₁ ─poll─▶ final text, RUN_FINISHED
 *                              │ submit fails (status) → same token₀ stays current, the result is kept
 *                              │ submit refused (fail) → RUN_ERROR BACKGROUND_TOOL_DELIVERY_REJECTED
 *                              └ found EXECUTING, no result, poll gone → RUN_ERROR BACKGROUND_TOOL_RESULT_INDETERMINATE
 */
export class BackgroundEngine {
  readonly #deps: BackgroundEngineDeps;
  readonly #livePolls = new Set<string>();
  readonly #attempts = new Map<string, Attempt>();

  constructor(deps: BackgroundEngineDeps) {
    this.#deps = deps;
  }

  reset(): void {
    this.#livePolls.clear();
    this.#attempts.clear();
  }

  tokenOf(runId: string): string | null {
    return this.#deps.state().background[runId]?.token ?? null;
  }

  /**
   * Starts a background run. With an `Idempotency-Key`, a repeat of the same
   * start (a retry after a lost response) answers with the run the first one
   * started and its current token: no second run, no second token. The key
   * lives in the same window as resume keys; another body under it is refused.
   */
  start(input: RunAgentInput, raw: Buffer, idempotencyKey: string | undefined): BackgroundAnswer {
    const { threadId, runId } = input;
    const state = this.#deps.state();
    if (idempotencyKey !== undefined) {
      const bodyHash = createHash("sha256").update(raw).digest("hex");
      const record = state.idempotency[idempotencyKey];
      if (record !== undefined && record.bodyHash !== bodyHash) {
        return error(
          422,
          OutcomeCode.IDEMPOTENCY_KEY_REUSED,
          "this Idempotency-Key was used with a different body; a new start needs a new key",
        );
      }
      const started = record === undefined ? undefined : state.background[record.runId];
      if (started !== undefined) return { kind: "json", status: 202, body: this.#response(started, 0) };
      if (record === undefined && state.runs[runId] === undefined) {
        state.idempotency[idempotencyKey] = {
          key: idempotencyKey,
          bodyHash,
          runId,
          threadId,
          createdAt: this.#deps.options.clock.now(),
        };
      }
    }
    if (state.runs[runId] !== undefined) {
      return error(
        409,
        OutcomeCode.INVALID_REQUEST,
        "this runId is already used; a new run needs a new runId",
      );
    }
    const now = this.#deps.options.clock.now();
    const thread = threadOf(state, threadId, now);
    const known = new Set(thread.messages.map((message) => message.id));
    for (const message of input.messages) if (!known.has(message.id)) thread.messages.push(message);

    const attempt = this.#deps.hub.begin(runId, threadId, null);
    this.#attempts.set(runId, attempt);
    const token = this.#newToken();
    const start: BackgroundStart = { continuationToken: token, pollPath: BACKGROUND_POLL_PATH };
    state.background[runId] = {
      runId,
      threadId,
      status: "queued",
      step: 0,
      token,
      finalToken: null,
      request: lastUserText(input.messages),
      calls: [],
      poll: null,
      error: null,
    };
    this.#deps.hub.append(attempt, {
      type: "RUN_STARTED",
      threadId,
      runId,
      metadata: { [MetadataKey.background]: start },
    } as AgUiEvent);
    state.backgroundTokens[token] = { runId, afterSeq: this.#deps.hub.get(runId)?.lastSeq ?? 0 };
    this.#deps.save();
    return { kind: "json", status: 202, body: this.#response(state.background[runId], 0) };
  }

  async poll(raw: Buffer): Promise<BackgroundAnswer> {
    const parsed = parsePollRequest(raw);
    if (!parsed.ok) return error(400, parsed.code, parsed.message);
    const token = parsed.token;
    const state = this.#deps.state();
    const tokenRecord = state.backgroundTokens[token];
    const run = tokenRecord === undefined ? undefined : state.background[tokenRecord.runId];
    if (tokenRecord === undefined || run === undefined) {
      return error(
        404,
        OutcomeCode.BACKGROUND_TOKEN_UNKNOWN,
        "no background run holds this continuation token",
      );
    }

    const early = this.#deps.faults.take(FaultPoint.beforeResponse, run.threadId);
    if (early?.action === FaultAction.delay) {
      const alive = this.#deps.aliveCheck();
      await this.#deps.options.sleep(delayOf(early));
      if (!alive()) return { kind: "crashed" };
      return this.poll(raw);
    }
    if (early?.action === FaultAction.crash) {
      this.#deps.crashAt(FaultPoint.beforeResponse);
      return { kind: "crashed" };
    }
    if (early !== undefined) {
      return this.#transient(
        early.status ?? 503,
        early.retryAfterMs,
        "the agent is unavailable; poll again later",
      );
    }

    if (token !== run.token) {
      // The poll that finished the run may be repeated: its answer does not change.
      if (token === run.finalToken)
        return { kind: "json", status: 200, body: this.#response(run, tokenRecord.afterSeq) };
      return error(
        409,
        OutcomeCode.BACKGROUND_TOKEN_STALE,
        "this continuation token was already advanced; poll with the newest one (GET /agent/runs/{runId} shows it)",
      );
    }
    const now = this.#deps.options.clock.now();
    if (run.poll !== null && (this.#livePolls.has(run.poll.pollId) || run.poll.leaseUntil > now)) {
      return error(409, OutcomeCode.BACKGROUND_POLL_IN_PROGRESS, "another poll of this run is in progress");
    }

    const pollId = this.#deps.options.randomUUID();
    run.poll = { pollId, leaseUntil: now + this.#deps.options.claimLeaseMs };
    this.#livePolls.add(pollId);
    this.#deps.save();
    const alive = this.#deps.aliveCheck();
    try {
      const step = await this.#advance(run, token, alive);
      if (step.kind === "transient") {
        return this.#transient(
          step.status,
          step.retryAfterMs,
          "submitting the tool outputs failed after the tool ran; poll again with the same continuation token",
        );
      }
      return { kind: "json", status: 200, body: this.#response(run, tokenRecord.afterSeq) };
    } catch (caught) {
      if (caught instanceof ServerGone || !alive()) return { kind: "crashed" };
      throw caught;
    } finally {
      this.#livePolls.delete(pollId);
      if (alive() && run.poll?.pollId === pollId) {
        run.poll = null;
        this.#deps.save();
      }
    }
  }

  async #advance(run: BackgroundRun, polledToken: string, alive: () => boolean): Promise<StepResult> {
    const attempt = this.#attempt(run);
    const emit = (event: AgUiEvent) => {
      if (!alive()) throw new ServerGone();
      this.#deps.hub.append(attempt, event);
    };
    const state = this.#deps.state();
    const options = this.#deps.options;
    const thread = threadOf(state, run.threadId, options.clock.now());

    if (run.step >= 1) {
      const target = String(run.calls[0]?.args.target ?? "staging");
      const messageId = options.randomUUID();
      emitText(emit, messageId, deployDone(target));
      thread.messages.push({ id: messageId, role: "assistant", content: deployDone(target) });
      this.#finish(run, polledToken);
      emit({
        type: "RUN_FINISHED",
        threadId: run.threadId,
        runId: run.runId,
        outcome: { type: "success" },
      } as AgUiEvent);
      return { kind: "advanced" };
    }

    run.status = "in_progress";
    if (!asksToDeploy(run.request)) {
      const messageId = options.randomUUID();
      emitText(emit, messageId, SMALL_TALK_TEXT);
      thread.messages.push({ id: messageId, role: "assistant", content: SMALL_TALK_TEXT });
      this.#finish(run, polledToken);
      emit({
        type: "RUN_FINISHED",
        threadId: run.threadId,
        runId: run.runId,
        outcome: { type: "success" },
      } as AgUiEvent);
      return { kind: "advanced" };
    }

    if (run.calls.length === 0) {
      // The model's first response asks for the tool call.
      const target = deployTarget(run.request);
      const args = { target };
      const callId = `call_${options.randomUUID()}`;
      const messageId = options.randomUUID();
      emitText(emit, messageId, deployIntro(target).replace(" I need your approval first.", ""));
      emit({
        type: "TOOL_CALL_START",
        toolCallId: callId,
        toolCallName: DEPLOY_TOOL,
        parentMessageId: messageId,
      } as AgUiEvent);
      emit({ type: "TOOL_CALL_ARGS", toolCallId: callId, delta: JSON.stringify(args) } as AgUiEvent);
      emit({ type: "TOOL_CALL_END", toolCallId: callId } as AgUiEvent);
      run.calls = [
        {
          responseId: `${run.runId}/response-1`,
          callId,
          position: 0,
          name: DEPLOY_TOOL,
          args,
          state: CallState.requested,
          result: null,
        },
      ];
      thread.messages.push({
        id: messageId,
        role: "assistant",
        content: deployIntro(target).replace(" I need your approval first.", ""),
        toolCalls: [
          { id: callId, type: "function", function: { name: DEPLOY_TOOL, arguments: JSON.stringify(args) } },
        ],
      });
      this.#deps.save();
    }

    for (const call of run.calls) {
      if (call.state === CallState.executing || call.state === CallState.indeterminate) {
        // A poll died while this call ran and left no result: it may or may not have happened.
        call.state = CallState.indeterminate;
        this.#fail(
          run,
          polledToken,
          emit,
          OutcomeCode.BACKGROUND_TOOL_RESULT_INDETERMINATE,
          `tool call ${call.callId} was cut off mid-execution; it may or may not have run, so it is not run again`,
        );
        return { kind: "advanced" };
      }
      if (call.state !== CallState.requested) continue;
      call.state = CallState.executing;
      state.ledger.push({
        threadId: run.threadId,
        toolCallId: call.callId,
        name: call.name,
        args: call.args,
        at: new Date(options.clock.now()).toISOString(),
      });
      this.#deps.save();
      const cut = await this.#faultAt(FaultPoint.midTool, run.threadId, alive);
      if (cut !== undefined) {
        call.state = CallState.indeterminate;
        this.#fail(
          run,
          polledToken,
          emit,
          OutcomeCode.BACKGROUND_TOOL_RESULT_INDETERMINATE,
          `tool call ${call.callId} was cut off mid-execution; it may or may not have run, so it is not run again`,
        );
        return { kind: "advanced" };
      }
      await options.sleep(options.toolDurationMs);
      if (!alive()) throw new ServerGone();
      call.result = { messageId: options.randomUUID(), content: deployReceipt(call.args) };
      call.state = CallState.completed;
      this.#deps.save();
      emit({
        type: "TOOL_CALL_RESULT",
        messageId: call.result.messageId,
        toolCallId: call.callId,
        content: call.result.content,
        role: "tool",
      } as AgUiEvent);
      thread.messages.push({
        id: call.result.messageId,
        role: "tool",
        toolCallId: call.callId,
        content: call.result.content,
      });
      this.#deps.save();
    }

    // Submit the stored outputs (again, after a failed submission: never re-execute).
    for (const call of run.calls) {
      if (call.state === CallState.completed || call.state === CallState.delivering)
        call.state = CallState.delivering;
    }
    this.#deps.save();
    const submit = await this.#faultAt(FaultPoint.backgroundSubmit, run.threadId, alive);
    if (submit?.action === FaultAction.fail) {
      this.#fail(
        run,
        polledToken,
        emit,
        OutcomeCode.BACKGROUND_TOOL_DELIVERY_REJECTED,
        "the tool outputs were refused for good after the tool ran; the result could not be delivered",
      );
      return { kind: "advanced" };
    }
    if (submit !== undefined) {
      for (const call of run.calls) if (call.state === CallState.delivering) call.state = CallState.completed;
      this.#deps.save();
      return { kind: "transient", status: submit.status ?? 503, retryAfterMs: submit.retryAfterMs };
    }
    for (const call of run.calls) if (call.state === CallState.delivering) call.state = CallState.delivered;
    run.step = 1;
    const next = this.#newToken();
    run.token = next;
    state.backgroundTokens[next] = {
      runId: run.runId,
      afterSeq: this.#deps.hub.get(run.runId)?.lastSeq ?? 0,
    };
    this.#deps.save();
    return { kind: "advanced" };
  }

  #finish(run: BackgroundRun, polledToken: string): void {
    run.status = "completed";
    run.step = 2;
    run.token = null;
    run.finalToken = polledToken;
  }

  /**
   * The next fault at `point`, with the two actions every point shares already
   * carried out: `delay` waits and is spent, `crash` kills the instance. What is
   * returned is for the caller to act on (fail, status).
   */
  async #faultAt(point: FaultPoint, threadId: string, alive: () => boolean): Promise<Fault | undefined> {
    const fault = this.#deps.faults.take(point, threadId);
    if (fault?.action === FaultAction.delay) {
      await this.#deps.options.sleep(delayOf(fault));
      if (!alive()) throw new ServerGone();
      return undefined;
    }
    if (fault?.action === FaultAction.crash) {
      this.#deps.crashAt(point);
      throw new ServerGone();
    }
    return fault;
  }

  #fail(
    run: BackgroundRun,
    polledToken: string,
    emit: (event: AgUiEvent) => void,
    code: string,
    message: string,
  ): void {
    run.status = "failed";
    run.token = null;
    run.finalToken = polledToken;
    run.error = { code, message };
    emit({ type: "RUN_ERROR", code, message } as AgUiEvent);
  }

  #attempt(run: BackgroundRun): Attempt {
    const known = this.#attempts.get(run.runId);
    if (known !== undefined && this.#deps.hub.isLive(run.runId)) return known;
    // After a restart the run has no live attempt: open one that continues its log.
    const attempt = this.#deps.hub.begin(run.runId, run.threadId, null);
    this.#attempts.set(run.runId, attempt);
    return attempt;
  }

  #response(run: BackgroundRun, afterSeq: number): BackgroundResponse {
    const log = this.#deps.hub.get(run.runId);
    return {
      runId: run.runId,
      threadId: run.threadId,
      status: run.status,
      continuationToken: run.token,
      events: (log?.frames ?? [])
        .filter((frame) => frame.seq > afterSeq)
        .map((frame) => ({ ...frame.event })),
      lastSeq: log?.lastSeq ?? 0,
      error: run.error,
    };
  }

  #transient(status: number, retryAfterMs: number | undefined, message: string): BackgroundAnswer {
    const headers: Record<string, string> = {};
    if (retryAfterMs !== undefined) headers["retry-after"] = String(Math.ceil(retryAfterMs / 1000));
    return error(status, injectedStatusError(status).code, message, headers);
  }

  #newToken(): string {
    return `bgt_${this.#deps.options.randomUUID()}`;
  }
}
