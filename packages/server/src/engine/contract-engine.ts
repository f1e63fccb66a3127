import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import {
  type AgUiEvent,
  MetadataKey,
  OutcomeCode,
  type ResumeClaimAck,
  type RunAgentInput,
} from "@agui-outbox/core/protocol";
import { ServerCode } from "../server-codes";
import type { ContractStore } from "../store/contract-store";
import { ORPHANED_RUN_ERROR } from "../store/release-claim";
import { scopedId, scopeStore } from "../store/scoped-store";
import { backgroundRunOf } from "./background-answers";
import { type BackgroundAnswer, BackgroundEngine } from "./background-engine";
import { askBeforeClaim, claimContext, passAfterClaim } from "./claim-hooks";
import { writeHydration } from "./hydration";
import { idProblem } from "./ids";
import type { ResolvedServerOptions } from "./options";
import { parseRunInput } from "./parse-run-input";
import { pumpAgent } from "./pump-agent";
import { replayEvents } from "./replay-events";
import { type ClaimedAnswer, evaluateResume, isOpen } from "./resume-verdict";
import { RunAttempt } from "./run-attempt";
import { runError } from "./run-error";
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

const RUN_ID_TAKEN: RunResponse = {
  kind: "error",
  status: 409,
  code: ServerCode.RUN_ID_TAKEN,
  message: "this runId belongs to another thread; a new run needs a new runId",
};

/** The options as one request's caller sees them: the store scoped to its identity. */
type Scoped = ResolvedServerOptions & {
  readonly caller: string | undefined;
  readonly request: IncomingMessage | undefined;
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
  /** Runs whose `beginRun` is in flight on this instance, by their id in the store (see `scopedId`). */
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

  /**
   * The store as `identity` sees it (see `scopeStore`); the store itself for
   * the anonymous identity (no `identify`). Reads of runs go through it.
   */
  storeFor(identity: string | undefined): ContractStore {
    return scopeStore(this.#store, identity);
  }

  #scoped(identity: string | undefined, request: IncomingMessage | undefined): Scoped {
    return { ...this.#options, store: this.storeFor(identity), caller: identity, request };
  }

  /**
   * `pollPath` is where this server answers background polls, as the start
   * tells the client; `identity` is what the app's `identify` returned;
   * `request` is handed to the agent's turn.
   */
  async handleRun(
    raw: Buffer,
    idempotencyKey: string | undefined,
    pollPath = "/agent/background/poll",
    identity?: string,
    request?: IncomingMessage,
  ): Promise<RunResponse> {
    try {
      const scoped = this.#scoped(identity, request);
      const response = await this.#handleRun(raw, idempotencyKey, pollPath, scoped);
      return this.#abandoned ? { kind: "abandoned" } : response;
    } catch (error) {
      // Abandoned mid-request (a write refused once its attempt stopped): nothing is answered.
      if (this.#abandoned) return { kind: "abandoned" };
      throw error;
    }
  }

  async #handleRun(
    raw: Buffer,
    idempotencyKey: string | undefined,
    pollPath: string,
    options: Scoped,
  ): Promise<RunResponse> {
    if (this.#abandoned) return { kind: "abandoned" };
    const badKey = idempotencyKey === undefined ? undefined : idProblem(idempotencyKey, "Idempotency-Key");
    if (badKey !== undefined)
      return { kind: "error", status: 400, code: ServerCode.INVALID_ID, message: badKey };
    const parsed = parseRunInput(raw, this.#options.randomUUID);
    if (!parsed.ok) return { kind: "error", status: 400, code: parsed.code, message: parsed.message };
    const input = parsed.input;
    if (input.resume !== undefined && input.resume.length > 0)
      return this.#resume(input, raw, idempotencyKey, options);
    const background = (input.forwardedProps as { background?: unknown } | undefined)?.background === true;
    if (background && this.#background !== undefined && input.messages.length > 0) {
      return {
        kind: "json",
        answer: await this.#background.start(input, raw, idempotencyKey, pollPath, options.store),
      };
    }
    return this.#userTurn(input, options);
  }

  /** `POST {base}/background/poll`; 404 when this server runs no background agent. */
  async pollBackground(raw: Buffer, identity?: string): Promise<BackgroundAnswer> {
    if (this.#abandoned) return ABANDONED;
    if (this.#background === undefined) {
      return {
        status: 404,
        body: {
          error: { code: OutcomeCode.NOT_FOUND_ROUTE, message: "this server runs no background agent" },
        },
      };
    }
    const answer = await this.#background.poll(raw, this.storeFor(identity), identity);
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
        this.#beginning.has(runId) ||
        [...this.#attempts].some((attempt) => scopedId(attempt.identity, attempt.runId) === runId);
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

  async #userTurn(input: RunAgentInput, options: Scoped): Promise<RunResponse> {
    const { threadId, runId } = input;
    const store = options.store;
    await store.sweep();
    const now = await store.now();
    const occurrences = await store.threadOccurrences(threadId);
    const open = occurrences.filter((occurrence) => isOpen(occurrence, now));
    const blocked = occurrences.some((occurrence) => occurrence.claim !== null) || open.length > 0;
    const attempt = await this.#begin(runId, threadId, options);
    if (attempt === undefined) {
      if (await this.#runOfAnotherThread(store, runId, threadId)) return RUN_ID_TAKEN;
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
      await writeHydration(attempt, input, interrupts, options.hydrate, options.request);
    } else if (blocked) {
      await attempt.emit({
        type: "RUN_ERROR",
        code: OutcomeCode.REQUIRED,
        message: "this thread is waiting for an answer to its open interrupts; resume them first",
      } as AgUiEvent);
    } else {
      this.#track(
        attempt,
        pumpAgent(
          options,
          attempt,
          { input, answers: [], signal: attempt.signal, identity: options.caller, request: options.request },
          undefined,
        ),
      );
    }
    return { kind: "stream", runId, afterSeq: attempt.startSeq };
  }

  // ── resumes ────────────────────────────────────────────────────────────────

  async #resume(
    input: RunAgentInput,
    raw: Buffer,
    key: string | undefined,
    options: Scoped,
  ): Promise<RunResponse> {
    const { threadId } = input;
    const store = options.store;
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
    const inUse = await store.run(input.runId);
    if (inUse !== undefined && inUse.threadId !== threadId) return RUN_ID_TAKEN;
    const runIdInUse = inUse !== undefined;
    const record = await store.reserveKey({ key, bodyHash, runId: input.runId, threadId });
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
    await store.sweep();
    const attempt = await this.#begin(runId, threadId, options);
    if (attempt === undefined) {
      if (await this.#runOfAnotherThread(store, runId, threadId)) return RUN_ID_TAKEN;
      // The same submission while its run is going (on any instance): show that run instead of starting another.
      return { kind: "stream", runId, afterSeq: 0 };
    }

    let gated = false;
    for (let round = 0; ; round += 1) {
      const now = await store.now();
      const occurrences = await store.threadOccurrences(threadId);
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
          options.beforeClaim,
          claimContext(input, runId, key, verdict.claims, options.caller),
        );
        if (refusal !== undefined) {
          await attempt.emit({ type: "RUN_STARTED", threadId, runId } as AgUiEvent);
          await attempt.emit(runError(refusal.code, refusal.message));
          return { kind: "stream", runId, afterSeq: attempt.startSeq };
        }
      }
      const claimed = await store.claim({
        runId,
        key,
        leaseMs: options.claimLeaseMs,
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
      this.#track(attempt, this.#continueResume(attempt, input, key, verdict.claims, options));
      return { kind: "stream", runId, afterSeq: attempt.startSeq };
    }
  }

  async #continueResume(
    attempt: RunAttempt,
    input: RunAgentInput,
    key: string,
    claims: readonly ClaimedAnswer[],
    options: Scoped,
  ): Promise<void> {
    const context = claimContext(input, attempt.runId, key, claims, options.caller);
    if (!(await passAfterClaim(options.afterClaim, attempt, context))) return;
    const run: ResumeRun = { attempt, input, key, claims, options, store: options.store };
    const applied = await runResume(run);
    if (applied === undefined) return;
    const finals = applied.finals;
    const settle = { kind: "commit", key, afterSeq: attempt.startSeq, finals } as const;
    if (claims.some(({ occurrence }) => backgroundRunOf(occurrence) !== undefined)) {
      // A background run's question: its run goes on at its next poll, not here.
      const done = { type: "RUN_FINISHED", threadId: input.threadId, runId: attempt.runId };
      await attempt.emit({ ...done, outcome: { type: "success" } } as AgUiEvent, settle);
      return;
    }
    await pumpAgent(
      options,
      attempt,
      {
        input: applied.input,
        answers: applied.answers,
        signal: attempt.signal,
        identity: options.caller,
        request: options.request,
      },
      settle,
    );
  }

  /** A runId is created once, by its thread: true when another thread of this identity has it. */
  async #runOfAnotherThread(store: ContractStore, runId: string, threadId: string): Promise<boolean> {
    const run = await store.run(runId);
    return run !== undefined && run.threadId !== threadId;
  }

  async #begin(runId: string, threadId: string, options: Scoped): Promise<RunAttempt | undefined> {
    const store = options.store;
    const owner = this.#options.instanceId;
    // Counted as live from before its row exists, so closeOrphanedRuns never takes it for a dead one.
    // The store's own id: the sweep below compares it with the open runs the store lists.
    const stored = scopedId(options.caller, runId);
    this.#beginning.add(stored);
    let run: Awaited<ReturnType<ContractStore["beginRun"]>>;
    try {
      run = await store.beginRun(runId, threadId, owner, this.#options.claimLeaseMs);
    } finally {
      this.#beginning.delete(stored);
    }
    if (run === undefined) return undefined;
    const attempt = new RunAttempt({
      store,
      owner,
      runId,
      threadId,
      startSeq: run.lastSeq,
      leaseMs: this.#options.claimLeaseMs,
      clock: this.#options.clock,
      identity: options.caller,
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
