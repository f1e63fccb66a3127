import {
  type AgUiEvent,
  OutcomeCode,
  type ResumeEntry,
  type RunAgentInput,
} from "@agui-outbox/core/protocol";
import { DEPLOY_REJECTED_TEXT, deployDone, deployReceipt } from "../agent/deploy-script";
import { emitText, scriptHydration, scriptUserTurn, threadOf } from "../agent/scripted-turns";
import { delayOf, FaultAction, FaultPoint } from "../chaos/fault";
import { ServerGone } from "../engine/run-failure";
import { type Occurrence, OccurrenceState, occurrenceKey } from "../state/mock-state";
import { Aborted, ExceptionCode, emitStarted, modelCallFailed, notFound, ToolCutOff } from "./af-events";
import { AfLifecycle } from "./af-lifecycle";
import {
  FAILED_TOOL_RESULT,
  legacyResponseSchema,
  lifecycleResponseSchema,
  REJECTED_TOOL_RESULT,
  readLegacyPayload,
} from "./af-payloads";
import type { AfEngineDeps, AfFlavour, AfShared, AfSink, TurnCall } from "./af-shared";

export { LIFECYCLE_REPLAY_WINDOW_MS } from "./af-lifecycle";

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
 * - `af-legacy` takes only the first entry of a resume, as 1.0.1 does: the
 *   others are neither run nor consumed, and stay answerable on their own.
 * - `af-lifecycle` (1.7.0, af-lifecycle.ts): interrupt ids `af-call-<uuid>`;
 *   claim / executing / settled per occurrence, in memory only; every entry of
 *   a resume taken; `RUN_STARTED` as soon as the claims are taken, before the
 *   tools run; an identical retry within 900 s replays the settled results
 *   without a model turn; an unavailable tool is `APPROVAL_TOOL_UNAVAILABLE`,
 *   the claim released; everything else is `APPROVAL_RESUME_INVALID` with a
 *   telling message.
 */
export class AfEngine implements AfShared {
  readonly #deps: AfEngineDeps;
  readonly #lifecycle: AfLifecycle;
  readonly hidden = new Set<string>();

  constructor(deps: AfEngineDeps) {
    this.#deps = deps;
    this.#lifecycle = new AfLifecycle(this);
  }

  get deps(): AfEngineDeps {
    return this.#deps;
  }

  reset(): void {
    this.#lifecycle.reset();
    this.hidden.clear();
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
        else await this.#lifecycle.resume(input, resume, emit, alive, sink);
      } else {
        const ctx = {
          state: this.#deps.state(),
          now: this.#deps.options.clock.now(),
          randomUUID: this.#deps.options.randomUUID,
          emit,
        };
        emit({ type: "RUN_STARTED", threadId: input.threadId, runId: input.runId } as AgUiEvent);
        if (input.messages.length === 0) {
          scriptHydration(ctx, input.threadId, input.runId, (occurrence) =>
            this.hidden.has(occurrenceKey(occurrence.threadId, occurrence.interruptId)),
          );
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
    const { threadId } = input;
    const state = this.#deps.state();
    // 1.0.1 reads the first entry only; the others are neither run nor consumed,
    // and its hydration no longer shows them (measured), though each can still be
    // answered on its own.
    const entry = resume[0];
    if (entry === undefined) return;
    for (const other of resume.slice(1)) {
      const otherKey = occurrenceKey(threadId, other.interruptId);
      if (state.occurrences[otherKey]?.state === OccurrenceState.pending) this.hidden.add(otherKey);
    }
    const key = occurrenceKey(threadId, entry.interruptId);
    this.hidden.delete(key);
    const occurrence = state.occurrences[key];
    if (occurrence === undefined || occurrence.state !== OccurrenceState.pending) {
      emitStarted(emit, input);
      emit(notFound(entry.interruptId));
      return;
    }
    const unavailable = await this.fault(FaultPoint.beforeClaim, threadId);
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
    if (await this.fault(FaultPoint.afterClaim, threadId)) {
      emit({
        type: "RUN_ERROR",
        code: ExceptionCode.tool,
        message: "the run failed after ingress",
      } as AgUiEvent);
      return;
    }
    const decision = readLegacyPayload(entry.payload, occurrence.args);
    const result = decision.approved ? await this.executeOnce(occurrence, decision.args, alive, sink) : null;
    if (!decision.approved) this.recordRejection(threadId, occurrence);
    await this.finishTurn(input, [{ occurrence, decision, result }], emit, "af-legacy", false);
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
    this.recordToolResult(threadId, occurrence, failed);
    threadOf(this.#deps.state(), threadId, this.#deps.options.clock.now()).messages.push({
      id: messageId,
      role: "assistant",
      content: FAILED_TOOL_RESULT,
    });
    this.#deps.save();
    emit({ type: "RUN_FINISHED", threadId, runId, outcome: { type: "success" } } as AgUiEvent);
  }

  // ── shared ────────────────────────────────────────────────────────────────

  /** Runs the tool: the ledger entry is the side effect. A client gone by the end aborts the run. */
  async executeOnce(
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
    if (await this.fault(FaultPoint.midTool, occurrence.threadId)) throw new ToolCutOff();
    await this.#deps.options.sleep(this.#deps.options.toolDurationMs);
    if (!alive() || sink.closed) throw new Aborted();
    return { messageId: this.#deps.options.randomUUID(), content: deployReceipt(args) };
  }

  /**
   * `RUN_STARTED` unless already sent (legacy sends it only now, after the tool),
   * each call's result in order, one model turn, `RUN_FINISHED`.
   */
  async finishTurn(
    input: RunAgentInput,
    calls: readonly TurnCall[],
    emit: (event: AgUiEvent) => void,
    flavour: AfFlavour,
    started: boolean,
  ): Promise<void> {
    const { threadId, runId } = input;
    // 1.0.1 streams nothing before the model's first output: a model call that fails
    // after the tool ran is a bare RUN_ERROR, with no sign that the tool ran.
    const modelFailsFirst = flavour === "af-legacy" && (await this.fault(FaultPoint.afterTool, threadId));
    if (modelFailsFirst) {
      emit(modelCallFailed());
      return;
    }
    if (!started) emit({ type: "RUN_STARTED", threadId, runId } as AgUiEvent);
    for (const { occurrence, result } of calls) {
      if (result === null) continue;
      emit({
        type: "TOOL_CALL_RESULT",
        messageId: result.messageId,
        toolCallId: occurrence.toolCallId,
        content: result.content,
        role: "tool",
      } as AgUiEvent);
    }
    if (flavour === "af-lifecycle" && (await this.fault(FaultPoint.afterTool, threadId))) {
      emit(modelCallFailed());
      return;
    }
    // The model answers for every call at once ("Deployed to prod. Deployed to staging.").
    const text = calls
      .map(({ decision, result }) =>
        result === null ? DEPLOY_REJECTED_TEXT : deployDone(String(decision.args.target)),
      )
      .join(" ");
    const messageId = this.#deps.options.randomUUID();
    emitText(emit, messageId, text);
    for (const { occurrence, result } of calls)
      if (result !== null) this.recordToolResult(threadId, occurrence, result);
    const thread = threadOf(this.#deps.state(), threadId, this.#deps.options.clock.now());
    thread.messages.push({ id: messageId, role: "assistant", content: text });
    this.#deps.save();
    // Both releases end a resume's turn with the thread as stored: a rejection shows
    // there as the call's tool message, and a call they did not take shows nothing.
    emit({ type: "MESSAGES_SNAPSHOT", messages: thread.messages } as AgUiEvent);
    emit({ type: "RUN_FINISHED", threadId, runId, outcome: { type: "success" } } as AgUiEvent);
  }

  /** The tool's result as a thread message, once (a replay emits the same message id). */
  recordToolResult(
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
  recordRejection(threadId: string, occurrence: Occurrence): void {
    this.recordToolResult(threadId, occurrence, {
      messageId: this.#deps.options.randomUUID(),
      content: REJECTED_TOOL_RESULT,
    });
  }

  /** 1.7.0 finishes a cancel with no model turn, and an identical cancel the same way. */
  finishCancelled(input: RunAgentInput, emit: (event: AgUiEvent) => void, started = false): void {
    if (!started) emit({ type: "RUN_STARTED", threadId: input.threadId, runId: input.runId } as AgUiEvent);
    emit({
      type: "RUN_FINISHED",
      threadId: input.threadId,
      runId: input.runId,
      outcome: { type: "success" },
    } as AgUiEvent);
  }

  /** True when a `fail` fault fired at `point`; `crash` kills the instance, `delay` pauses and goes on. */
  async fault(point: FaultPoint, threadId: string): Promise<boolean> {
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
