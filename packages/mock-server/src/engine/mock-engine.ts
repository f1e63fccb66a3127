import { createHash } from "node:crypto";
import {
  type AgUiEvent,
  type Message,
  MetadataKey,
  OutcomeCode,
  type ResumeClaimAck,
  type ResumeConflict,
  type RunAgentInput,
  type RunStatus,
} from "@agui-outbox/core/protocol";
import { isOpen, parseRunInput, replayEvents } from "@agui-outbox/server";
import { AfEngine, type AfFlavour, type AfSink } from "../af/af-engine";
import {
  DEPLOY_CANCELLED_TEXT,
  DEPLOY_REJECTED_TEXT,
  deployDone,
  deployReceipt,
  deployResponseSchema,
  effectiveArgs,
  readDeployAnswer,
} from "../agent/deploy-script";
import {
  emitText,
  scriptHydration,
  scriptUserTurn,
  type TurnContext,
  threadOccurrences,
  threadOf,
} from "../agent/scripted-turns";
import { type BackgroundAnswer, BackgroundEngine } from "../background/background-engine";
import { delayOf, FaultAction, FaultPoint } from "../chaos/fault";
import type { FaultQueue } from "../chaos/fault-queue";
import { injectedStatusError } from "../chaos/injected-status";
import { MockMode, type ResolvedOptions } from "../options";
import { type Attempt, RunHub } from "../runs/run-hub";
import {
  emptyState,
  type LedgerEntry,
  type MockState,
  type Occurrence,
  OccurrenceState,
  type OutcomeRecord,
  type StoredToolResult,
  upgradeState,
} from "../state/mock-state";
import type { MockStore } from "../store/mock-store";
import { decideResume, type MockClaimedAnswer, settleLapsedClaim } from "./resume-view";
import { RunFailure, ServerGone } from "./run-failure";

/** `GET /__occurrences`: one approval occurrence, without the answer's content. */
export interface OccurrenceView {
  readonly threadId: string;
  readonly interruptId: string;
  readonly state: string;
  readonly claimedBy: string | null;
  readonly leaseUntil: string | null;
  readonly resultStored: boolean;
  readonly resolvedBy: string | null;
  readonly expiresAt: string | null;
}

/** What the HTTP layer does with a `POST /agent`. */
export type AgentPostResult =
  | {
      readonly kind: "error";
      readonly status: number;
      readonly code: string;
      readonly message: string;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | {
      readonly kind: "stream";
      readonly runId: string;
      /** Frames after this seq belong to the response. */
      readonly afterSeq: number;
      readonly dropAfterFrames: number | undefined;
    }
  | {
      /** A run without the contract: bare frames straight to the response, no log. */
      readonly kind: "direct";
      readonly dropAfterFrames: number | undefined;
      readonly start: (sink: AfSink) => void;
    }
  | {
      readonly kind: "json";
      readonly status: number;
      readonly body: unknown;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | { readonly kind: "crashed" };

export type AttachTarget =
  | { readonly kind: "unknown" }
  | { readonly kind: "expired" }
  | { readonly kind: "ok"; readonly lastSeq: number };

export interface MockEngineDeps {
  readonly options: ResolvedOptions;
  readonly store: MockStore;
  readonly faults: FaultQueue;
  /** Tears the instance down abruptly; the engine has already stopped writing. */
  readonly crash: (point: string) => void;
}

/**
 * The recovery contract's server side: the scripted agent, the approval
 * occurrence state machine, idempotency records and the run logs, over one
 * state document persisted after every mutation.
 *
 *   PENDING ──claim──▶ CLAIMED ──▶ EXECUTING ──result stored──▶ EXECUTED ──RUN_FINISHED──▶ RESOLVED
 *      ▲                  │            │                          │                    (REJECTED, CANCELLED)
 *      └──── rollback ────┴────────────┼──────────────────────────┘  (keeps the result and its decision)
 *                                      └─ cut off, no result ─▶ INDETERMINATE (never re-run)
 */
export class MockEngine {
  readonly #options: ResolvedOptions;
  readonly #store: MockStore;
  readonly #faults: FaultQueue;
  readonly #crash: (point: string) => void;
  readonly #hub: RunHub;
  readonly #af: AfEngine;
  readonly #background: BackgroundEngine;
  #state: MockState;
  #mode: MockMode;
  /** Bumped by a reset so runs started before it stop writing. */
  #epoch = 0;
  #dead = false;

  constructor(deps: MockEngineDeps) {
    this.#options = deps.options;
    this.#store = deps.store;
    this.#faults = deps.faults;
    this.#crash = deps.crash;
    this.#mode = deps.options.mode;
    this.#state = upgradeState(deps.store.load() ?? emptyState());
    this.#hub = new RunHub({
      state: () => this.#state,
      save: () => this.#save(),
      now: () => this.#now(),
    });
    this.#af = new AfEngine({
      options: deps.options,
      faults: deps.faults,
      state: () => this.#state,
      save: () => this.#save(),
      aliveCheck: () => this.#aliveCheck(),
      crashAt: (point) => this.#crashAt(point),
    });
    this.#background = new BackgroundEngine({
      options: deps.options,
      faults: deps.faults,
      hub: this.#hub,
      state: () => this.#state,
      save: () => this.#save(),
      aliveCheck: () => this.#aliveCheck(),
      crashAt: (point) => this.#crashAt(point),
    });
    this.#closeOrphanedAttempts();
  }

  /**
   * A previous instance died mid-run: those attempts can never finish, so each
   * gets its terminal `RUN_ERROR` now (every run ends with exactly one). Their
   * claims stay leased; a retry re-claims once the lease lapses. Background
   * runs are left open: the next poll continues them.
   */
  #closeOrphanedAttempts(): void {
    for (const run of Object.values(this.#state.runs)) {
      if (run.terminal !== null || run.expired || this.#state.background[run.runId] !== undefined) continue;
      const attempt = this.#hub.begin(run.runId, run.threadId, null);
      this.#appendError(
        attempt,
        OutcomeCode.UNAVAILABLE,
        "the server restarted while this run was in progress; retry with the same Idempotency-Key",
      );
    }
  }

  /** `POST /agent/background/poll`. */
  pollBackground(raw: Buffer): Promise<BackgroundAnswer> {
    this.#prune();
    return this.#background.poll(raw);
  }

  get mode(): MockMode {
    return this.#mode;
  }

  set mode(mode: MockMode) {
    this.#mode = mode;
  }

  get hub(): RunHub {
    return this.#hub;
  }

  ledger(): readonly LedgerEntry[] {
    return this.#state.ledger;
  }

  /** The approval occurrences' states, for inspection; answers' content is left out. */
  occurrences(threadId: string | null): OccurrenceView[] {
    return Object.values(this.#state.occurrences)
      .filter((occurrence) => threadId === null || occurrence.threadId === threadId)
      .map((occurrence) => ({
        threadId: occurrence.threadId,
        interruptId: occurrence.interruptId,
        state: occurrence.state,
        claimedBy: occurrence.claim?.runId ?? null,
        leaseUntil: occurrence.claim === null ? null : new Date(occurrence.claim.leaseUntil).toISOString(),
        resultStored: occurrence.result !== null,
        resolvedBy: occurrence.outcome?.runId ?? null,
        expiresAt: occurrence.interrupt.expiresAt ?? null,
      }));
  }

  /** Stops every run in flight and forgets everything, faults included. */
  reset(): void {
    this.#epoch += 1;
    this.#hub.dropAll();
    this.#af.reset();
    this.#background.reset();
    this.#state = emptyState();
    this.#faults.clear();
    this.#save();
  }

  /** After a crash or close: nothing more is written. */
  markDead(): void {
    this.#dead = true;
    this.#hub.dropAll();
  }

  get dead(): boolean {
    return this.#dead;
  }

  runStatus(runId: string): RunStatus | undefined {
    this.#prune();
    const run = this.#state.runs[runId];
    if (run === undefined) return undefined;
    const terminal = run.terminal;
    return {
      runId,
      threadId: run.threadId,
      status: terminal === null ? "running" : terminal.type === "RUN_FINISHED" ? "finished" : "error",
      lastSeq: run.lastSeq,
      terminal: terminal === null ? null : { ...terminal },
      continuationToken: this.#background.tokenOf(runId) ?? run.continuationToken,
    };
  }

  attachTarget(runId: string): AttachTarget {
    this.#prune();
    const run = this.#state.runs[runId];
    if (run === undefined) return { kind: "unknown" };
    if (run.expired) return { kind: "expired" };
    return { kind: "ok", lastSeq: run.lastSeq };
  }

  async handleAgentPost(raw: Buffer, idempotencyKey: string | undefined): Promise<AgentPostResult> {
    this.#prune();
    const parsed = parseRunInput(raw, this.#options.randomUUID);
    if (!parsed.ok) return { kind: "error", status: 400, code: parsed.code, message: parsed.message };
    const input = parsed.input;

    const early = this.#faults.take(FaultPoint.beforeResponse, input.threadId);
    if (early?.action === FaultAction.delay) {
      // The request stays in flight, nothing read or claimed yet.
      const alive = this.#aliveCheck();
      await this.#options.sleep(delayOf(early));
      if (!alive()) return { kind: "crashed" };
    } else if (early !== undefined) {
      if (early.action === FaultAction.crash) {
        this.#crashAt(FaultPoint.beforeResponse);
        return { kind: "crashed" };
      }
      const status = early.status ?? 503;
      const headers: Record<string, string> = {};
      if (early.retryAfterMs !== undefined)
        headers["retry-after"] = String(Math.ceil(early.retryAfterMs / 1000));
      return {
        kind: "error",
        status,
        ...injectedStatusError(status),
        headers,
      };
    }

    if (this.#mode !== MockMode.fixed) {
      const flavour: AfFlavour = this.#mode;
      const drop = this.#faults.take(FaultPoint.midStream, input.threadId);
      return {
        kind: "direct",
        dropAfterFrames: drop === undefined ? undefined : (drop.afterEvents ?? 1),
        start: (sink) => this.#af.run(flavour, input, sink),
      };
    }

    const background = (input.forwardedProps as { background?: unknown } | undefined)?.background === true;
    if (background && (input.resume ?? []).length === 0 && input.messages.length > 0) {
      return this.#background.start(input, raw, idempotencyKey);
    }

    if (input.resume !== undefined && input.resume.length > 0) {
      // A delay before the claim holds the request in flight before anything is evaluated.
      const hold = this.#faults.take(
        FaultPoint.beforeClaim,
        input.threadId,
        (f) => f.action === FaultAction.delay,
      );
      if (hold !== undefined) {
        const alive = this.#aliveCheck();
        await this.#options.sleep(delayOf(hold));
        if (!alive()) return { kind: "crashed" };
      }
    }

    const wasLive = this.#hub.isLive(input.runId);
    try {
      if (input.resume !== undefined && input.resume.length > 0)
        return this.#resume(input, raw, idempotencyKey);
      if (wasLive) {
        return {
          kind: "error",
          status: 409,
          code: OutcomeCode.INVALID_REQUEST,
          message: "this runId is still running",
        };
      }
      if (input.messages.length === 0) return this.#hydrate(input);
      return this.#userTurn(input);
    } catch (error) {
      if (error instanceof ServerGone) return { kind: "crashed" };
      // Never leave an attempt open: every run ends with exactly one terminal event.
      if (!wasLive) this.#hub.abandon(input.runId, "the mock server failed while starting this run");
      throw error;
    }
  }

  // ── runs ──────────────────────────────────────────────────────────────────

  #stream(runId: string, afterSeq: number, threadId: string): AgentPostResult {
    const drop = this.#faults.take(FaultPoint.midStream, threadId);
    return {
      kind: "stream",
      runId,
      afterSeq,
      dropAfterFrames: drop === undefined ? undefined : (drop.afterEvents ?? 1),
    };
  }

  #turnContext(attempt: Attempt): TurnContext {
    return {
      state: this.#state,
      now: this.#now(),
      randomUUID: this.#options.randomUUID,
      emit: (event) => this.#hub.append(attempt, event),
    };
  }

  #hydrate(input: RunAgentInput): AgentPostResult {
    const { threadId, runId } = input;
    const attempt = this.#hub.begin(runId, threadId, null);
    const now = this.#now();
    for (const occurrence of threadOccurrences(this.#state, threadId)) {
      settleLapsedClaim(occurrence, now, (id) => this.#hub.isLive(id));
    }
    this.#hub.append(attempt, { type: "RUN_STARTED", threadId, runId } as AgUiEvent);
    scriptHydration(this.#turnContext(attempt), threadId, runId);
    return this.#stream(runId, attempt.startSeq, threadId);
  }

  #userTurn(input: RunAgentInput): AgentPostResult {
    const { threadId, runId } = input;
    const now = this.#now();
    const blocking = threadOccurrences(this.#state, threadId).filter((occurrence) => {
      settleLapsedClaim(occurrence, now, (id) => this.#hub.isLive(id));
      return isOpen(occurrence, now) || occurrence.claim !== null;
    });
    const attempt = this.#hub.begin(runId, threadId, null);
    this.#hub.append(attempt, { type: "RUN_STARTED", threadId, runId } as AgUiEvent);
    if (blocking.length > 0) {
      this.#hub.append(attempt, {
        type: "RUN_ERROR",
        code: OutcomeCode.REQUIRED,
        message: "this thread is waiting for an answer to its open interrupts; resume them first",
      } as AgUiEvent);
    } else {
      scriptUserTurn(this.#turnContext(attempt), input, {
        responseSchema: deployResponseSchema,
        ttlMs: this.#options.interruptTtlMs,
      });
    }
    return this.#stream(runId, attempt.startSeq, threadId);
  }

  #resume(input: RunAgentInput, raw: Buffer, key: string | undefined): AgentPostResult {
    const { threadId } = input;
    const entries = input.resume ?? [];
    if (key === undefined) {
      return {
        kind: "error",
        status: 400,
        code: OutcomeCode.IDEMPOTENCY_KEY_REQUIRED,
        message: "a resume needs an Idempotency-Key header",
      };
    }
    for (const entry of entries) {
      const copy: unknown = entry.metadata?.[MetadataKey.idempotencyKey];
      if (copy !== undefined && copy !== key) {
        return {
          kind: "error",
          status: 400,
          code: OutcomeCode.INVALID_REQUEST,
          message: `resume metadata["${MetadataKey.idempotencyKey}"] disagrees with the Idempotency-Key header`,
        };
      }
    }
    const bodyHash = createHash("sha256").update(raw).digest("hex");
    const record = this.#state.idempotency[key];
    if (record !== undefined && record.bodyHash !== bodyHash) {
      return {
        kind: "error",
        status: 422,
        code: OutcomeCode.IDEMPOTENCY_KEY_REUSED,
        message: "this Idempotency-Key was used with a different body; a new decision needs a new key",
      };
    }
    // The same submission while its run is going: show that run instead of starting another.
    if (record !== undefined && this.#hub.isLive(record.runId))
      return this.#stream(record.runId, 0, threadId);

    const runId = record?.runId ?? input.runId;
    if (record === undefined) {
      if (this.#state.runs[runId] !== undefined) {
        return {
          kind: "error",
          status: 409,
          code: OutcomeCode.INVALID_REQUEST,
          message: "this runId is already used by another request; a new submission needs a new runId",
        };
      }
      this.#state.idempotency[key] = { key, bodyHash, runId, threadId, createdAt: this.#now() };
    }

    const attempt = this.#hub.begin(runId, threadId, key);
    const verdict = decideResume({
      state: this.#state,
      threadId,
      entries,
      now: this.#now(),
      isLive: (id) => id !== runId && this.#hub.isLive(id),
    });

    if (verdict.kind === "reject") {
      this.#hub.append(attempt, { type: "RUN_STARTED", threadId, runId } as AgUiEvent);
      this.#appendError(attempt, verdict.code, verdict.message, verdict.conflict);
      return this.#stream(runId, attempt.startSeq, threadId);
    }
    if (verdict.kind === "replay") {
      for (const event of replayEvents(verdict.outcome, runId, threadId)) this.#hub.append(attempt, event);
      return this.#stream(runId, attempt.startSeq, threadId);
    }

    const gate = this.#faults.take(FaultPoint.beforeClaim, threadId, (f) => f.action !== FaultAction.delay);
    if (gate?.action === FaultAction.crash) {
      this.#crashAt(FaultPoint.beforeClaim);
      return { kind: "crashed" };
    }
    if (gate !== undefined) {
      this.#hub.append(attempt, { type: "RUN_STARTED", threadId, runId } as AgUiEvent);
      this.#appendError(
        attempt,
        OutcomeCode.TOOL_UNAVAILABLE,
        "the approved tool is unavailable; nothing ran, retry later",
      );
      return this.#stream(runId, attempt.startSeq, threadId);
    }

    // Claim the whole batch at once; nothing awaits between the checks above and here.
    const leaseUntil = this.#now() + this.#options.claimLeaseMs;
    for (const { occurrence, decision } of verdict.claims) {
      occurrence.claim = { runId, key, leaseUntil };
      occurrence.state = occurrence.result === null ? OccurrenceState.claimed : OccurrenceState.executed;
      occurrence.decision = decision;
    }
    const ack: ResumeClaimAck = {
      ack: "claimed",
      interruptIds: verdict.claims.map(({ occurrence }) => occurrence.interruptId),
      idempotencyKey: key,
      runId,
    };
    this.#hub.append(attempt, {
      type: "RUN_STARTED",
      threadId,
      runId,
      metadata: { [MetadataKey.resume]: ack },
    } as AgUiEvent);
    this.#continueResume(attempt, verdict.claims, this.#epoch).catch(() => {
      // Even the rollback failed (the store could not be written): still end the attempt.
      try {
        this.#hub.abandon(runId, "the mock server failed while running this resume");
      } catch {
        // Nothing more can be written; the attempt is closed on the next start.
      }
    });
    return this.#stream(runId, attempt.startSeq, threadId);
  }

  async #continueResume(
    attempt: Attempt,
    claims: readonly MockClaimedAnswer[],
    epoch: number,
  ): Promise<void> {
    const { runId, threadId } = attempt;
    const alive = () => !this.#dead && this.#epoch === epoch;
    const emit = (event: AgUiEvent) => {
      if (!alive()) throw new ServerGone();
      this.#renewLeases(runId, claims);
      this.#hub.append(attempt, event);
    };
    /** The `fail` fault at `point`, if any; `crash` kills the instance, `delay` pauses and goes on. */
    const fault = async (point: FaultPoint) => {
      if (!alive()) throw new ServerGone();
      const found = this.#faults.take(point, threadId);
      if (found?.action === FaultAction.crash) {
        this.#crashAt(point);
        throw new ServerGone();
      }
      if (found?.action === FaultAction.delay) {
        await this.#options.sleep(delayOf(found));
        if (!alive()) throw new ServerGone();
        this.#renewLeases(runId, claims);
        return undefined;
      }
      return found;
    };

    try {
      // Let the claim ack reach the client first: a crash "after the claim" must be seen after it.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if ((await fault(FaultPoint.afterClaim)) !== undefined) {
        throw new RunFailure(
          OutcomeCode.UNAVAILABLE,
          "the agent failed after claiming the answer; retry with the same key",
        );
      }
      const results: StoredToolResult[] = [];
      const lines: string[] = [];
      const argsByOccurrence = new Map<Occurrence, Record<string, unknown>>();
      for (const { occurrence, decision } of claims) {
        if (decision.status === "cancelled") {
          lines.push(DEPLOY_CANCELLED_TEXT);
          continue;
        }
        const answer = readDeployAnswer(decision.payload);
        if (!answer.approved) {
          lines.push(DEPLOY_REJECTED_TEXT);
          continue;
        }
        const args = effectiveArgs(occurrence.args, answer);
        argsByOccurrence.set(occurrence, args);
        const result = occurrence.result ?? (await this.#executeTool(occurrence, args, alive, fault));
        emit({
          type: "TOOL_CALL_RESULT",
          messageId: result.messageId,
          toolCallId: result.toolCallId,
          content: result.content,
          role: "tool",
        } as AgUiEvent);
        results.push(result);
        lines.push(deployDone(String(result.args.target)));
      }
      if ((await fault(FaultPoint.afterTool)) !== undefined) {
        throw new RunFailure(
          OutcomeCode.MODEL_CALL_FAILED,
          "the model call after the tool failed; the tool result is kept for a retry with the same key",
        );
      }
      const text = lines.join(" ");
      const messageId = this.#options.randomUUID();
      this.#renewLeases(runId, claims);
      emitText((event) => this.#hub.append(attempt, event), messageId, text);

      // Commit: the outcome record is written in the same save as RUN_FINISHED.
      if (!alive()) throw new ServerGone();
      const finished = { type: "RUN_FINISHED", threadId, runId, outcome: { type: "success" } } as AgUiEvent;
      const events = [...this.#hub.eventsOf(attempt), finished];
      const now = this.#now();
      for (const { occurrence, decision } of claims) {
        const approved = decision.status === "resolved" && readDeployAnswer(decision.payload).approved;
        const outcome: OutcomeRecord = {
          decision,
          args: argsByOccurrence.get(occurrence) ?? null,
          key: attempt.key ?? "",
          runId,
          results: results.filter((result) => result.toolCallId === occurrence.toolCallId),
          events,
          at: now,
        };
        occurrence.state =
          decision.status === "cancelled"
            ? OccurrenceState.cancelled
            : approved
              ? OccurrenceState.resolved
              : OccurrenceState.rejected;
        occurrence.claim = null;
        occurrence.outcome = outcome;
      }
      const thread = threadOf(this.#state, threadId, this.#now());
      for (const result of results) {
        thread.messages.push({
          id: result.messageId,
          role: "tool",
          toolCallId: result.toolCallId,
          content: result.content,
        } as Message);
      }
      thread.messages.push({ id: messageId, role: "assistant", content: text });
      this.#hub.append(attempt, finished);
    } catch (error) {
      if (error instanceof ServerGone || !alive()) return;
      const failure =
        error instanceof RunFailure
          ? error
          : new RunFailure(OutcomeCode.UNAVAILABLE, "the agent failed; retry later");
      // Roll back to PENDING, keeping any stored result (and the decision it belongs to).
      for (const { occurrence } of claims) {
        if (occurrence.claim?.runId !== runId) continue;
        occurrence.claim = null;
        if (occurrence.state === OccurrenceState.indeterminate) continue;
        occurrence.state = OccurrenceState.pending;
        if (occurrence.result === null) occurrence.decision = null;
      }
      this.#appendError(attempt, failure.code, failure.message);
    }
  }

  async #executeTool(
    occurrence: Occurrence,
    args: Record<string, unknown>,
    alive: () => boolean,
    fault: (point: FaultPoint) => Promise<unknown>,
  ): Promise<StoredToolResult> {
    occurrence.state = OccurrenceState.executing;
    if (occurrence.claim !== null) occurrence.claim.leaseUntil = this.#now() + this.#options.claimLeaseMs;
    // The side effect happens here; the ledger is how tests count it.
    this.#state.ledger.push({
      threadId: occurrence.threadId,
      toolCallId: occurrence.toolCallId,
      name: occurrence.toolName,
      args,
      at: new Date(this.#now()).toISOString(),
    });
    this.#save();
    if ((await fault(FaultPoint.midTool)) !== undefined) {
      // Cut off with no result: whether the deploy happened is unknown, so it is never re-run.
      occurrence.state = OccurrenceState.indeterminate;
      occurrence.claim = null;
      throw new RunFailure(
        OutcomeCode.INDETERMINATE,
        "the tool was cut off mid-execution; it may or may not have run, so it is not run again",
      );
    }
    await this.#options.sleep(this.#options.toolDurationMs);
    if (!alive()) throw new ServerGone();
    const result: StoredToolResult = {
      toolCallId: occurrence.toolCallId,
      messageId: this.#options.randomUUID(),
      content: deployReceipt(args),
      args,
    };
    occurrence.result = result;
    occurrence.state = OccurrenceState.executed;
    this.#save();
    return result;
  }

  // ── helpers ───────────────────────────────────────────────────────────────

  #appendError(attempt: Attempt, code: string, message: string, conflict?: ResumeConflict): void {
    const event =
      conflict === undefined
        ? { type: "RUN_ERROR", code, message }
        : { type: "RUN_ERROR", code, message, metadata: { [MetadataKey.resume]: conflict } };
    this.#hub.append(attempt, event as AgUiEvent);
  }

  #renewLeases(runId: string, claims: readonly MockClaimedAnswer[]): void {
    const leaseUntil = this.#now() + this.#options.claimLeaseMs;
    for (const { occurrence } of claims) {
      if (occurrence.claim?.runId === runId) occurrence.claim.leaseUntil = leaseUntil;
    }
  }

  /** A check that turns false once this instance dies or is reset. */
  #aliveCheck(): () => boolean {
    const epoch = this.#epoch;
    return () => !this.#dead && this.#epoch === epoch;
  }

  #crashAt(point: string): void {
    this.markDead();
    this.#crash(point);
  }

  #now(): number {
    return this.#options.clock.now();
  }

  #save(): void {
    if (this.#dead) throw new ServerGone();
    this.#store.save(this.#state);
  }

  /** Expires event logs past their retention and idempotency records past their window. */
  #prune(): void {
    const now = this.#now();
    let changed = false;
    for (const [runId, run] of Object.entries(this.#state.runs)) {
      if (this.#hub.isLive(runId)) continue;
      if (run.updatedAt + this.#options.idempotencyWindowMs <= now) {
        delete this.#state.runs[runId];
        changed = true;
      } else if (!run.expired && run.updatedAt + this.#options.eventLogRetentionMs <= now) {
        run.frames = [];
        run.expired = true;
        changed = true;
      }
    }
    for (const [key, record] of Object.entries(this.#state.idempotency)) {
      if (record.createdAt + this.#options.idempotencyWindowMs <= now) {
        delete this.#state.idempotency[key];
        changed = true;
      }
    }
    if (changed) this.#save();
  }
}
