import {
  type AgUiEvent,
  OutcomeCode,
  type ResumeEntry,
  type RunAgentInput,
} from "@agui-outbox/core/protocol";
import { canonicalJson } from "@agui-outbox/server";
import { DEPLOY_REJECTED_TEXT, deployDone, deployReceipt } from "../agent/deploy-script";
import { emitText, scriptHydration, scriptUserTurn, threadOf } from "../agent/scripted-turns";
import { delayOf, FaultAction, FaultPoint } from "../chaos/fault";
import type { FaultQueue } from "../chaos/fault-queue";
import { ServerGone } from "../engine/run-failure";
import type { ResolvedOptions } from "../options";
import { type MockState, type Occurrence, OccurrenceState, occurrenceKey } from "../state/mock-state";
import {
  type AfDecision,
  FAILED_TOOL_RESULT,
  legacyResponseSchema,
  lifecycleResponseSchema,
  REJECTED_TOOL_RESULT,
  readLegacyPayload,
  readLifecyclePayload,
} from "./af-payloads";

export type AfFlavour = "af-legacy" | "af-lifecycle";

/** Where a run without the contract writes: a bare SSE response, no ids, no log. */
export interface AfSink {
  readonly closed: boolean;
  writeFrame(id: undefined, data: unknown): void;
  end(): void;
}

export interface AfEngineDeps {
  readonly options: ResolvedOptions;
  readonly faults: FaultQueue;
  readonly state: () => MockState;
  readonly save: () => void;
  /** A liveness check bound to the current instance and reset epoch. */
  readonly aliveCheck: () => () => boolean;
  readonly crashAt: (point: string) => void;
}

/** The exception names Agent Framework puts in `RUN_ERROR.code` for these failures. */
const ExceptionCode = {
  modelCall: "ServiceResponseException",
  tool: "ToolExecutionException",
} as const;

/** Agent Framework's in-process replay window for settled approvals. */
export const LIFECYCLE_REPLAY_WINDOW_MS = 900_000;

type LifecycleState = "claimed" | "executing" | "settled" | "indeterminate";

interface LifecycleRecord {
  state: LifecycleState;
  readonly decision: { readonly status: string; readonly payload: string };
  readonly read: AfDecision | null;
  result: { readonly messageId: string; readonly content: string } | null;
  settledAt: number;
}

/** The client went away (legacy aborts the run) or the instance died: stop quietly. */
class Aborted extends Error {}

/** A `mid-tool` fail fault: the tool was cut off after its side effect, with no result. */
class ToolCutOff extends Error {}

/**
 * Emulates the two generations of Microsoft Agent Framework's AG-UI server
 * that exist in the wild, so the client's degraded rules are tested without
 * Python. Neither sends `id:` lines, honours `Idempotency-Key`, keeps a
 * re-attachable log, or advertises `x-recovery`. Both send `RUN_STARTED` before
 * their `APPROVAL_*` errors, and store a rejection as the call's tool message.
 * docs/interop.md holds each behaviour against the real release.
 *
 * - `af-legacy` (1.0.1): the pending approval is consumed at ingress, the tool
 *   runs before `RUN_STARTED`, and any later resume of it — after a failure or
 *   a success — is NOT_FOUND. An unavailable tool consumes the answer too and
 *   finishes with "Error: Function failed.". A disconnect aborts the run.
 * - `af-lifecycle` (1.7.0): interrupt ids `af-call-<uuid>`; claim / executing /
 *   settled per occurrence, in memory only (a restart forgets them);
 *   `RUN_STARTED` as soon as the claim is taken, before the tool runs; an
 *   identical retry within 900 s replays the settled result without a model
 *   turn; an unavailable tool is `APPROVAL_TOOL_UNAVAILABLE`, the claim
 *   released; everything else is `APPROVAL_RESUME_INVALID` with a telling message.
 */
export class AfEngine {
  readonly #deps: AfEngineDeps;
  readonly #lifecycle = new Map<string, LifecycleRecord>();

  constructor(deps: AfEngineDeps) {
    this.#deps = deps;
  }

  reset(): void {
    this.#lifecycle.clear();
  }

  /** Starts the run on `sink`; the caller has already answered any HTTP-level fault. */
  run(flavour: AfFlavour, input: RunAgentInput, sink: AfSink): void {
    const alive = this.#deps.aliveCheck();
    const emit = (event: AgUiEvent) => {
      if (!alive() || sink.closed) throw new Aborted();
      sink.writeFrame(undefined, event);
    };
    const task = async () => {
      const resume = input.resume ?? [];
      if (resume.length > 0) {
        if (flavour === "af-legacy") await this.#legacyResume(input, resume, emit, alive, sink);
        else await this.#lifecycleResume(input, resume, emit, alive, sink);
      } else {
        const ctx = {
          state: this.#deps.state(),
          now: this.#deps.options.clock.now(),
          randomUUID: this.#deps.options.randomUUID,
          emit,
        };
        emit({ type: "RUN_STARTED", threadId: input.threadId, runId: input.runId } as AgUiEvent);
        if (input.messages.length === 0) {
          scriptHydration(ctx, input.threadId, input.runId);
        } else {
          scriptUserTurn(ctx, input, {
            responseSchema: flavour === "af-legacy" ? legacyResponseSchema : lifecycleResponseSchema,
            ttlMs: flavour === "af-legacy" ? undefined : this.#deps.options.interruptTtlMs,
            ...(flavour === "af-lifecycle"
              ? { interruptId: () => `af-call-${this.#deps.options.randomUUID().replaceAll("-", "")}` }
              : {}),
          });
          this.#deps.save();
        }
      }
      sink.end();
    };
    task().catch((error: unknown) => {
      if (error instanceof Aborted || error instanceof ServerGone || !alive()) {
        sink.end();
        return;
      }
      const event =
        error instanceof ToolCutOff
          ? {
              type: "RUN_ERROR",
              code: ExceptionCode.tool,
              message: "tool deploy_change failed while executing",
            }
          : { type: "RUN_ERROR", code: "InternalServerError", message: "internal error" };
      sink.writeFrame(undefined, event);
      sink.end();
    });
  }

  // ── af-legacy ─────────────────────────────────────────────────────────────

  async #legacyResume(
    input: RunAgentInput,
    resume: readonly ResumeEntry[],
    emit: (event: AgUiEvent) => void,
    alive: () => boolean,
    sink: AfSink,
  ): Promise<void> {
    const { threadId, runId } = input;
    const state = this.#deps.state();
    const entry = resume[0];
    if (entry === undefined) return;
    const key = occurrenceKey(threadId, entry.interruptId);
    const occurrence = state.occurrences[key];
    if (occurrence === undefined || occurrence.state !== OccurrenceState.pending) {
      emitStarted(emit, input);
      emit(notFound(entry.interruptId));
      return;
    }
    const unavailable = await this.#fault(FaultPoint.beforeClaim, threadId);
    // Consumed at ingress to prevent replay — and nothing remembers that it was.
    delete state.occurrences[key];
    this.#deps.save();
    if (unavailable) {
      this.#finishUnavailableLegacy(input, occurrence, emit);
      return;
    }
    if (entry.status === "cancelled") {
      emitStarted(emit, input);
      emit({
        type: "RUN_ERROR",
        code: OutcomeCode.CANCELLED,
        message: `Approval for interrupt '${entry.interruptId}' was cancelled`,
      } as AgUiEvent);
      return;
    }
    if (await this.#fault(FaultPoint.afterClaim, threadId)) {
      emit({
        type: "RUN_ERROR",
        code: ExceptionCode.tool,
        message: "the run failed after ingress",
      } as AgUiEvent);
      return;
    }
    const decision = readLegacyPayload(entry.payload, occurrence.args);
    const result = decision.approved ? await this.#executeOnce(occurrence, decision.args, alive, sink) : null;
    if (!decision.approved) this.#recordRejection(threadId, occurrence);
    await this.#finishTurn(input, occurrence, decision, result, emit, runId, "af-legacy", false);
  }

  /** 1.0.1 with the tool unavailable: the answer is consumed, the call "failed", nothing ran. */
  #finishUnavailableLegacy(
    input: RunAgentInput,
    occurrence: Occurrence,
    emit: (event: AgUiEvent) => void,
  ): void {
    const { threadId, runId } = input;
    const failed = { messageId: this.#deps.options.randomUUID(), content: FAILED_TOOL_RESULT };
    emitStarted(emit, input);
    emit({
      type: "TOOL_CALL_RESULT",
      messageId: failed.messageId,
      toolCallId: occurrence.toolCallId,
      content: failed.content,
      role: "tool",
    } as AgUiEvent);
    const messageId = this.#deps.options.randomUUID();
    emitText(emit, messageId, FAILED_TOOL_RESULT);
    this.#recordToolResult(threadId, occurrence, failed);
    threadOf(this.#deps.state(), threadId, this.#deps.options.clock.now()).messages.push({
      id: messageId,
      role: "assistant",
      content: FAILED_TOOL_RESULT,
    });
    this.#deps.save();
    emit({ type: "RUN_FINISHED", threadId, runId, outcome: { type: "success" } } as AgUiEvent);
  }

  // ── af-lifecycle ──────────────────────────────────────────────────────────

  async #lifecycleResume(
    input: RunAgentInput,
    resume: readonly ResumeEntry[],
    emit: (event: AgUiEvent) => void,
    alive: () => boolean,
    sink: AfSink,
  ): Promise<void> {
    const { threadId, runId } = input;
    const state = this.#deps.state();
    const now = this.#deps.options.clock.now();
    const entry = resume[0];
    if (entry === undefined) return;
    const key = occurrenceKey(threadId, entry.interruptId);
    const id = entry.interruptId;
    const decisionKey = { status: entry.status, payload: canonicalJson(entry.payload ?? null) };
    let record = this.#lifecycle.get(key);
    if (record?.state === "settled" && record.settledAt + LIFECYCLE_REPLAY_WINDOW_MS <= now) {
      this.#lifecycle.delete(key);
      record = undefined;
    }
    const occurrence = state.occurrences[key];

    if (record !== undefined) {
      emitStarted(emit, input);
      if (record.state === "claimed" || record.state === "executing") {
        emit(invalid(`Approval interrupt '${id}' is not pending: another request is processing it`));
        return;
      }
      if (record.state === "indeterminate") {
        emit(
          invalid(
            `Approval interrupt '${id}' is indeterminate: the client disconnected while the tool was running, so it may or may not have run`,
          ),
        );
        return;
      }
      if (record.decision.status !== decisionKey.status || record.decision.payload !== decisionKey.payload) {
        emit(
          invalid(`Approval resume for interrupt '${id}' conflicts with the decision already settled for it`),
        );
        return;
      }
      if (occurrence === undefined) return;
      // Identical retry within the window: the settled result again, without a model turn.
      if (record.result !== null) {
        emit({
          type: "TOOL_CALL_RESULT",
          messageId: record.result.messageId,
          toolCallId: occurrence.toolCallId,
          content: record.result.content,
          role: "tool",
        } as AgUiEvent);
      }
      emit({ type: "RUN_FINISHED", threadId, runId, outcome: { type: "success" } } as AgUiEvent);
      return;
    }

    emitStarted(emit, input);
    if (occurrence === undefined || occurrence.state !== OccurrenceState.pending) {
      emit(notFound(id));
      return;
    }
    if (occurrence.expiresAt <= now) {
      occurrence.state = OccurrenceState.expired;
      this.#deps.save();
      emit(invalid(`Approval interrupt '${id}' expired at ${new Date(occurrence.expiresAt).toISOString()}`));
      return;
    }
    if (await this.#fault(FaultPoint.beforeClaim, threadId)) {
      // The claim is released as safe to retry: the identical resume runs the tool.
      emit({
        type: "RUN_ERROR",
        code: OutcomeCode.TOOL_UNAVAILABLE,
        message: "Approved tool(s) deploy_change are temporarily unavailable; retry the approval later.",
      } as AgUiEvent);
      return;
    }
    const read = entry.status === "cancelled" ? null : readLifecyclePayload(entry.payload, occurrence.args);
    record = { state: "claimed", decision: decisionKey, read, result: null, settledAt: 0 };
    this.#lifecycle.set(key, record);
    occurrence.state = OccurrenceState.claimed;
    this.#deps.save();

    if (read === null) {
      this.#settle(record);
      occurrence.state = OccurrenceState.cancelled;
      this.#deps.save();
      this.#finishCancelled(input, emit, false);
      return;
    }
    if (await this.#fault(FaultPoint.afterClaim, threadId)) {
      this.#lifecycle.delete(key);
      occurrence.state = OccurrenceState.pending;
      emit({
        type: "RUN_ERROR",
        code: ExceptionCode.tool,
        message: "the run failed after the claim",
      } as AgUiEvent);
      return;
    }
    if (read.approved) {
      record.state = "executing";
      try {
        record.result = await this.#executeOnce(occurrence, read.args, alive, sink);
      } catch (error) {
        if ((error instanceof Aborted && alive()) || error instanceof ToolCutOff)
          record.state = "indeterminate";
        throw error;
      }
    }
    // Settled before the model call, so a retry can reuse it; and, as Agent Framework
    // 1.7 does, already in the thread: a failing model call leaves it readable there.
    this.#settle(record);
    occurrence.state = read.approved ? OccurrenceState.resolved : OccurrenceState.rejected;
    if (record.result !== null) this.#recordToolResult(threadId, occurrence, record.result);
    if (!read.approved) this.#recordRejection(threadId, occurrence);
    this.#deps.save();
    await this.#finishTurn(input, occurrence, read, record.result, emit, runId, "af-lifecycle", true);
  }

  #settle(record: LifecycleRecord): void {
    record.state = "settled";
    record.settledAt = this.#deps.options.clock.now();
  }

  // ── shared ────────────────────────────────────────────────────────────────

  /** Runs the tool: the ledger entry is the side effect. A client gone by the end aborts the run. */
  async #executeOnce(
    occurrence: Occurrence,
    args: Record<string, unknown>,
    alive: () => boolean,
    sink: AfSink,
  ): Promise<{ messageId: string; content: string }> {
    const state = this.#deps.state();
    state.ledger.push({
      threadId: occurrence.threadId,
      toolCallId: occurrence.toolCallId,
      name: occurrence.toolName,
      args,
      at: new Date(this.#deps.options.clock.now()).toISOString(),
    });
    this.#deps.save();
    if (await this.#fault(FaultPoint.midTool, occurrence.threadId)) throw new ToolCutOff();
    await this.#deps.options.sleep(this.#deps.options.toolDurationMs);
    if (!alive() || sink.closed) throw new Aborted();
    return { messageId: this.#deps.options.randomUUID(), content: deployReceipt(args) };
  }

  /**
   * `RUN_STARTED` unless already sent (legacy sends it only now, after the tool),
   * the tool result, the model turn, `RUN_FINISHED`.
   */
  async #finishTurn(
    input: RunAgentInput,
    occurrence: Occurrence,
    decision: AfDecision,
    result: { readonly messageId: string; readonly content: string } | null,
    emit: (event: AgUiEvent) => void,
    runId: string,
    flavour: AfFlavour,
    started: boolean,
  ): Promise<void> {
    const { threadId } = input;
    // 1.0.1 streams nothing before the model's first output: a model call that fails
    // after the tool ran is a bare RUN_ERROR, with no sign that the tool ran.
    const modelFailsFirst = flavour === "af-legacy" && (await this.#fault(FaultPoint.afterTool, threadId));
    if (modelFailsFirst) {
      emit(modelCallFailed());
      return;
    }
    if (!started) emit({ type: "RUN_STARTED", threadId, runId } as AgUiEvent);
    if (result !== null) {
      emit({
        type: "TOOL_CALL_RESULT",
        messageId: result.messageId,
        toolCallId: occurrence.toolCallId,
        content: result.content,
        role: "tool",
      } as AgUiEvent);
    }
    if (flavour === "af-lifecycle" && (await this.#fault(FaultPoint.afterTool, threadId))) {
      emit(modelCallFailed());
      return;
    }
    const text = result === null ? DEPLOY_REJECTED_TEXT : deployDone(String(decision.args.target));
    const messageId = this.#deps.options.randomUUID();
    emitText(emit, messageId, text);
    if (result !== null) this.#recordToolResult(threadId, occurrence, result);
    const thread = threadOf(this.#deps.state(), threadId, this.#deps.options.clock.now());
    thread.messages.push({ id: messageId, role: "assistant", content: text });
    this.#deps.save();
    emit({ type: "RUN_FINISHED", threadId, runId, outcome: { type: "success" } } as AgUiEvent);
  }

  /** The tool's result as a thread message, once (a replay emits the same message id). */
  #recordToolResult(
    threadId: string,
    occurrence: Occurrence,
    result: { readonly messageId: string; readonly content: string },
  ): void {
    const thread = threadOf(this.#deps.state(), threadId, this.#deps.options.clock.now());
    if (thread.messages.some((message) => message.id === result.messageId)) return;
    thread.messages.push({
      id: result.messageId,
      role: "tool",
      toolCallId: occurrence.toolCallId,
      content: result.content,
    });
  }

  /** Both generations store a rejection as the call's tool message, not as a result. */
  #recordRejection(threadId: string, occurrence: Occurrence): void {
    this.#recordToolResult(threadId, occurrence, {
      messageId: this.#deps.options.randomUUID(),
      content: REJECTED_TOOL_RESULT,
    });
  }

  /** 1.7.0 finishes a cancel with no model turn, and an identical cancel the same way. */
  #finishCancelled(input: RunAgentInput, emit: (event: AgUiEvent) => void, started = false): void {
    if (!started) emit({ type: "RUN_STARTED", threadId: input.threadId, runId: input.runId } as AgUiEvent);
    emit({
      type: "RUN_FINISHED",
      threadId: input.threadId,
      runId: input.runId,
      outcome: { type: "success" },
    } as AgUiEvent);
  }

  /** True when a `fail` fault fired at `point`; `crash` kills the instance, `delay` pauses and goes on. */
  async #fault(point: FaultPoint, threadId: string): Promise<boolean> {
    const fault = this.#deps.faults.take(point, threadId);
    if (fault?.action === FaultAction.crash) {
      this.#deps.crashAt(point);
      throw new ServerGone();
    }
    if (fault?.action === FaultAction.delay) {
      const alive = this.#deps.aliveCheck();
      await this.#deps.options.sleep(delayOf(fault));
      if (!alive()) throw new ServerGone();
      return false;
    }
    return fault !== undefined;
  }
}

/**
 * `RUN_STARTED` on a resume. Written even when the client has already gone: the
 * server notices a disconnect only at a later write, so the tool still runs.
 */
function emitStarted(emit: (event: AgUiEvent) => void, input: RunAgentInput): void {
  try {
    emit({ type: "RUN_STARTED", threadId: input.threadId, runId: input.runId } as AgUiEvent);
  } catch (error) {
    if (!(error instanceof Aborted)) throw error;
  }
}

function modelCallFailed(): AgUiEvent {
  return {
    type: "RUN_ERROR",
    code: ExceptionCode.modelCall,
    message: "Service failed to complete the prompt: simulated provider 500",
  } as AgUiEvent;
}

function notFound(interruptId: string): AgUiEvent {
  return {
    type: "RUN_ERROR",
    code: OutcomeCode.NOT_FOUND,
    message: `No pending approval interrupt found for resume interruptId '${interruptId}'`,
  } as AgUiEvent;
}

function invalid(message: string): AgUiEvent {
  return { type: "RUN_ERROR", code: OutcomeCode.INVALID, message } as AgUiEvent;
}
