import { createHash } from "node:crypto";
import {
  type AgUiEvent,
  MetadataKey,
  OutcomeCode,
  type ResumeClaimAck,
  type RunAgentInput,
} from "@agui-outbox/core/protocol";
import type { ContractStore } from "../store/contract-store";
import { ORPHANED_RUN_ERROR } from "../store/release-claim";
import { type BackgroundAnswer, BackgroundEngine } from "./background-engine";
import { askBeforeClaim, claimContext, passAfterClaim } from "./claim-hooks";
import { writeHydration } from "./hydration";
import type { ResolvedServerOptions } from "./options";
import { parseRunInput } from "./parse-run-input";
import { pumpAgent, runError } from "./pump-agent";
import { replayEvents } from "./replay-events";
import { type ClaimedAnswer, evaluateResume, isOpen } from "./resume-verdict";
import { RunAttempt } from "./run-attempt";
import { type ResumeRun, runResume } from "./run-resume";

/** What the HTTP layer does with a `POST` of a run. */
export type RunResponse =
  | { readonly kind: "error"; readonly status: number; readonly code: string; readonly message: string }
  /** Stream the run's log from after this seq until its terminal event. */
  | { readonly kind: "stream"; readonly runId: string; readonly afterSeq: number }
  /** A background start's answer (202 and the first token), or why not. */
  | { readonly kind: "json"; readonly answer: BackgroundAnswer }
  /** This instance was abandoned ({@link ContractEngine.abandon}): close the connection, answer nothing. */
  | { readonly kind: "abandoned" };

/** A poll's answer once this instance was abandoned; the HTTP layer closes the connection instead. */
const ABANDONED: BackgroundAnswer = {
  status: 503,
  body: { error: { code: OutcomeCode.UNAVAILABLE, message: "this instance was abandoned" } },
};

/** How often one resume re-reads and decides again when another writer claimed in between. */
const CLAIM_ROUNDS = 5;

/**
 * The recovery contract over a {@link ContractStore}, independent of HTTP:
 *
 *   PENDING ──claim──▶ CLAIMED ──▶ EXECUTING ──result stored──▶ EXECUTED ──RUN_FINISHED──▶ RESOLVED
 *      ▲                  │            │                          │                    (REJECTED, CANCELLED)
 *      └──── rollback ────┴────────────┼──────────────────────────┘  (keeps the result and its decision)
 *                                      └─ cut off, no result ─▶ INDETERMINATE (never re-run)
 *
 * Every step is written to the store before it is visible, so any instance on
 * the same store can answer for a run another one started.
 */
export class ContractEngine {
  readonly #options: ResolvedServerOptions;
  readonly #store: ContractStore;
  readonly #attempts = new Set<RunAttempt>();
  readonly #work = new Set<Promise<void>>();
  /** Runs whose `beginRun` is in flight on this instance. */
  readonly #beginning = new Set<string>();
  readonly #background: BackgroundEngine | undefined;
  readonly #abandon = new AbortController();

  constructor(options: ResolvedServerOptions) {
    this.#options = options;
    this.#store = options.store;
    this.#background =
      options.background === undefined ? undefined : new BackgroundEngine(options, options.background);
  }

  get options(): ResolvedServerOptions {
    return this.#options;
  }

  /** `pollPath` is where this server answers background polls, as the start tells the client. */
  async handleRun(
    raw: Buffer,
    idempotencyKey: string | undefined,
    pollPath = "/agent/background/poll",
  ): Promise<RunResponse> {
    try {
      const response = await this.#handleRun(raw, idempotencyKey, pollPath);
      return this.#abandoned ? { kind: "abandoned" } : response;
    } catch (error) {
      // Abandoned mid-request (a write refused once its attempt stopped): nothing is answered.
      if (this.#abandoned) return { kind: "abandoned" };
      throw error;
    }
  }

  async #handleRun(raw: Buffer, idempotencyKey: string | undefined, pollPath: string): Promise<RunResponse> {
    if (this.#abandoned) return { kind: "abandoned" };
    const parsed = parseRunInput(raw, this.#options.randomUUID);
    if (!parsed.ok) return { kind: "error", status: 400, code: parsed.code, message: parsed.message };
    const input = parsed.input;
    if (input.resume !== undefined && input.resume.length > 0)
      return this.#resume(input, raw, idempotencyKey);
    const background = (input.forwardedProps as { background?: unknown } | undefined)?.background === true;
    if (background && this.#background !== undefined && input.messages.length > 0) {
      return { kind: "json", answer: await this.#background.start(input, raw, idempotencyKey, pollPath) };
    }
    return this.#userTurn(input);
  }

  /** `POST {base}/background/poll`; 404 when this server runs no background agent. */
  async pollBackground(raw: Buffer): Promise<BackgroundAnswer> {
    if (this.#abandoned) return ABANDONED;
    if (this.#background === undefined) {
      return {
        status: 404,
        body: {
          error: { code: OutcomeCode.NOT_FOUND_ROUTE, message: "this server runs no background agent" },
        },
      };
    }
    const answer = await this.#background.poll(raw);
    return this.#abandoned ? ABANDONED : answer;
  }

  /** True once {@link abandon} was called: this instance answers nothing more. */
  get abandoned(): boolean {
    return this.#abandon.signal.aborted;
  }

  /** Aborted by {@link abandon}: the HTTP layer closes this instance's open streams on it. */
  get abandonSignal(): AbortSignal {
    return this.#abandon.signal;
  }

  get #abandoned(): boolean {
    return this.#abandon.signal.aborted;
  }

  /**
   * Stops this instance as if its process died at this instant: every run and
   * background poll it holds stops writing, with no rollback and no
   * `RUN_ERROR`; their claims and leases stay in the store until they lapse and
   * a sweeper (of any instance on the store) takes them, as it would a dead
   * replica's. Requests from now on get no answer. Used to inject a crash.
   */
  abandon(): void {
    if (this.#abandoned) return;
    for (const attempt of this.#attempts) attempt.stop();
    this.#attempts.clear();
    this.#background?.abandon();
    this.#abandon.abort();
  }

  /** Takes lapsed claims and orphaned runs, and prunes past the retention windows. */
  async sweep(): Promise<void> {
    await this.closeOrphanedRuns();
    await this.#store.sweep();
    await this.#store.prune(this.#options);
  }

  /**
   * Ends, with their `RUN_ERROR`, the runs this instance's id began that it
   * does not run now: they are an earlier life's of this instance (a process
   * restarted with the same `instanceId`), which can never finish them. Their
   * claims stay leased until the lease lapses, as a dead instance's do.
   */
  async closeOrphanedRuns(): Promise<void> {
    if (this.#abandoned) return;
    const owner = this.#options.instanceId;
    for (const runId of await this.#store.openRunsOf(owner)) {
      const live =
        this.#beginning.has(runId) || [...this.#attempts].some((attempt) => attempt.runId === runId);
      if (!live) await this.#store.append(runId, owner, ORPHANED_RUN_ERROR);
    }
  }

  /** Ends this instance's live runs with a `RUN_ERROR` (rolling their claims back) and waits for them. */
  async shutdown(): Promise<void> {
    for (const attempt of this.#attempts) {
      const error = {
        type: "RUN_ERROR",
        code: OutcomeCode.UNAVAILABLE,
        message: "the server is shutting down; retry with the same Idempotency-Key",
      } as AgUiEvent;
      // The claim is already rolled back; a reader gone with the shutdown re-attaches or retries.
      await attempt.emit(error, { kind: "rollback" }).catch(() => {});
    }
    await Promise.allSettled([...this.#work]);
  }

  // ── user turns and hydration ───────────────────────────────────────────────

  async #userTurn(input: RunAgentInput): Promise<RunResponse> {
    const { threadId, runId } = input;
    await this.#store.sweep();
    const now = await this.#store.now();
    const occurrences = await this.#store.threadOccurrences(threadId);
    const open = occurrences.filter((occurrence) => isOpen(occurrence, now));
    const blocked = occurrences.some((occurrence) => occurrence.claim !== null) || open.length > 0;
    const attempt = await this.#begin(runId, threadId);
    if (attempt === undefined) {
      return {
        kind: "error",
        status: 409,
        code: OutcomeCode.INVALID_REQUEST,
        message: "this runId is still running",
      };
    }
    await attempt.emit({ type: "RUN_STARTED", threadId, runId } as AgUiEvent);
    if (input.messages.length === 0) {
      // Hydration: the thread's open interrupts, so a reloaded page can show them again.
      const interrupts = open.map((occurrence) => occurrence.interrupt);
      await writeHydration(attempt, input, interrupts, this.#options.hydrate);
    } else if (blocked) {
      await attempt.emit({
        type: "RUN_ERROR",
        code: OutcomeCode.REQUIRED,
        message: "this thread is waiting for an answer to its open interrupts; resume them first",
      } as AgUiEvent);
    } else {
      this.#track(
        attempt,
        pumpAgent(this.#options, attempt, { input, answers: [], signal: attempt.signal }, undefined),
      );
    }
    return { kind: "stream", runId, afterSeq: attempt.startSeq };
  }

  // ── resumes ────────────────────────────────────────────────────────────────

  async #resume(input: RunAgentInput, raw: Buffer, key: string | undefined): Promise<RunResponse> {
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
    // Read before the key is reserved: once it is, the same submission sent at the same
    // moment (on any instance) may begin this run, and must not make it look taken.
    const runIdInUse = (await this.#store.run(input.runId)) !== undefined;
    const record = await this.#store.reserveKey({ key, bodyHash, runId: input.runId, threadId });
    if (record.bodyHash !== bodyHash) {
      return {
        kind: "error",
        status: 422,
        code: OutcomeCode.IDEMPOTENCY_KEY_REUSED,
        message: "this Idempotency-Key was used with a different body; a new decision needs a new key",
      };
    }
    const runId = record.runId;
    if (record.created && runIdInUse) {
      return {
        kind: "error",
        status: 409,
        code: OutcomeCode.INVALID_REQUEST,
        message: "this runId is already used by another request; a new submission needs a new runId",
      };
    }
    await this.#store.sweep();
    const attempt = await this.#begin(runId, threadId);
    // The same submission while its run is going (on any instance): show that run instead of starting another.
    if (attempt === undefined) return { kind: "stream", runId, afterSeq: 0 };

    let gated = false;
    for (let round = 0; ; round += 1) {
      const now = await this.#store.now();
      const occurrences = await this.#store.threadOccurrences(threadId);
      const verdict = evaluateResume({ occurrences, entries, now });
      if (verdict.kind === "reject" || round === CLAIM_ROUNDS) {
        const reject =
          verdict.kind === "reject"
            ? verdict
            : { code: OutcomeCode.IN_PROGRESS, message: "another request keeps claiming this batch" };
        await attempt.emit({ type: "RUN_STARTED", threadId, runId } as AgUiEvent);
        await attempt.emit(
          runError(reject.code, reject.message, "conflict" in reject ? reject.conflict : undefined),
        );
        return { kind: "stream", runId, afterSeq: attempt.startSeq };
      }
      if (verdict.kind === "replay") {
        for (const event of replayEvents(verdict.outcome, runId, threadId)) await attempt.emit(event);
        return { kind: "stream", runId, afterSeq: attempt.startSeq };
      }
      if (!gated) {
        gated = true;
        const refusal = await askBeforeClaim(
          this.#options.beforeClaim,
          claimContext(input, runId, key, verdict.claims),
        );
        if (refusal !== undefined) {
          await attempt.emit({ type: "RUN_STARTED", threadId, runId } as AgUiEvent);
          await attempt.emit(runError(refusal.code, refusal.message));
          return { kind: "stream", runId, afterSeq: attempt.startSeq };
        }
      }
      const claimed = await this.#store.claim({
        runId,
        key,
        leaseMs: this.#options.claimLeaseMs,
        claims: verdict.claims.map(({ occurrence, decision }) => ({
          ref: occurrence,
          version: occurrence.version,
          decision,
        })),
      });
      if (!claimed) continue;
      const ack: ResumeClaimAck = {
        ack: "claimed",
        interruptIds: verdict.claims.map(({ occurrence }) => occurrence.interruptId),
        idempotencyKey: key,
        runId,
      };
      await attempt.emit({
        type: "RUN_STARTED",
        threadId,
        runId,
        metadata: { [MetadataKey.resume]: ack },
      } as AgUiEvent);
      this.#track(attempt, this.#continueResume(attempt, input, key, verdict.claims));
      return { kind: "stream", runId, afterSeq: attempt.startSeq };
    }
  }

  async #continueResume(
    attempt: RunAttempt,
    input: RunAgentInput,
    key: string,
    claims: readonly ClaimedAnswer[],
  ): Promise<void> {
    const context = claimContext(input, attempt.runId, key, claims);
    if (!(await passAfterClaim(this.#options.afterClaim, attempt, context))) return;
    const run: ResumeRun = { attempt, input, key, claims, options: this.#options, store: this.#store };
    const applied = await runResume(run);
    if (applied === undefined) return;
    const finals = applied.finals;
    await pumpAgent(
      this.#options,
      attempt,
      { input: applied.input, answers: applied.answers, signal: attempt.signal },
      { kind: "commit", key, afterSeq: attempt.startSeq, finals },
    );
  }

  async #begin(runId: string, threadId: string): Promise<RunAttempt | undefined> {
    const owner = this.#options.instanceId;
    // Counted as live from before its row exists, so closeOrphanedRuns never takes it for a dead one.
    this.#beginning.add(runId);
    let run: Awaited<ReturnType<ContractStore["beginRun"]>>;
    try {
      run = await this.#store.beginRun(runId, threadId, owner, this.#options.claimLeaseMs);
    } finally {
      this.#beginning.delete(runId);
    }
    if (run === undefined) return undefined;
    const attempt = new RunAttempt({
      store: this.#store,
      owner,
      runId,
      threadId,
      startSeq: run.lastSeq,
      leaseMs: this.#options.claimLeaseMs,
      clock: this.#options.clock,
    });
    if (this.#abandoned) attempt.stop();
    else this.#attempts.add(attempt);
    return attempt;
  }

  #track(attempt: RunAttempt, work: Promise<void>): void {
    // Each attempt records its own failures in the store (rollback or INDETERMINATE).
    const done = work
      .catch(() => {})
      .finally(() => {
        attempt.stop();
        this.#attempts.delete(attempt);
        this.#work.delete(done);
      });
    this.#work.add(done);
  }
}
