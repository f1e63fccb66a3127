import type { AgUiEvent } from "@agui-outbox/core/protocol";
import type { CommitWindow, ContractStore } from "../store/contract-store";
import type { Settlement } from "../store/records";
import type { ServerClock } from "./server-clock";

/** This instance no longer runs the attempt (its lease lapsed and another took over, or it shut down). */
export class LeaseLost extends Error {
  constructor(runId: string) {
    super(`this instance no longer runs ${runId}`);
    this.name = "LeaseLost";
  }
}

/** A server-side failure after the claim: the run ends in `RUN_ERROR` and the claim rolls back. */
export class RunFailure extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = "RunFailure";
    this.code = code;
  }
}

export interface RunAttemptInit {
  readonly store: ContractStore;
  readonly owner: string;
  readonly runId: string;
  readonly threadId: string;
  /** The run's last seq before this attempt. */
  readonly startSeq: number;
  readonly leaseMs: number;
  readonly clock: ServerClock;
  /** Whose run this is (see `AgentTurn.identity`). */
  readonly identity: string | undefined;
}

/** Events waiting for a write at most; a producer faster than the store waits beyond it. */
const MAX_QUEUED = 1024;

/** A pushed event's outcome goes to no caller (a failure is kept for the next call instead). */
const ignore = () => {};

interface Queued {
  readonly event: AgUiEvent;
  readonly settle: Settlement | undefined;
  /** Whether a caller awaits this event's write (`emit`), so a failure reaches it. */
  readonly awaited: boolean;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * One pass of a run on this instance, from its `beginRun` to its one terminal
 * event. Keeps its leases (the run's and its claims') renewed while it is
 * alive, and stops for good the moment a write is refused.
 *
 * Its events are written in order with a group commit: while one write is in
 * flight, the events that arrive queue and go in the next, one `appendMany`.
 * A reader sees an event only once its write committed, as before; the
 * producer just need not wait for each commit alone. Where the store names a
 * commit window, the events that arrived during a write wait up to it for more
 * before the next (see {@link CommitWindow}): fewer, larger commits.
 */
export class RunAttempt {
  readonly runId: string;
  readonly threadId: string;
  readonly startSeq: number;
  readonly identity: string | undefined;
  readonly #init: RunAttemptInit;
  readonly #abort = new AbortController();
  readonly #stopRenewal: () => void;
  readonly #queue: Queued[] = [];
  #room: (() => void)[] = [];
  #writing = false;
  /** The commit window's wait in progress: how many waiting events end it, and how. */
  #gathering: { readonly full: number; readonly done: () => void } | undefined;
  /** A failed write no caller was told of yet (its events were only pushed). */
  #failure: { readonly error: unknown } | undefined;
  #ended = false;

  constructor(init: RunAttemptInit) {
    this.#init = init;
    this.runId = init.runId;
    this.threadId = init.threadId;
    this.startSeq = init.startSeq;
    this.identity = init.identity;
    // A third of the lease: two renewals can fail before another instance may take over.
    this.#stopRenewal = init.clock.every(Math.max(10, Math.floor(init.leaseMs / 3)), () => {
      // A failed renewal lets the lease run down, as a dead instance's would.
      init.store.renewLeases(init.runId, init.owner, init.leaseMs).catch(() => {});
    });
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Appends one event, resolving once it is written; a terminal one ends the
   * attempt. Throws {@link LeaseLost} when refused, and the error of an
   * earlier pushed event's failed write.
   */
  emit(event: AgUiEvent, settle?: Settlement): Promise<void> {
    return new Promise((resolve, reject) => this.#enqueue({ event, settle, awaited: true, resolve, reject }));
  }

  /**
   * Queues a non-terminal event without waiting for its write (waiting only
   * while the queue is full). A failure is thrown by the next call.
   */
  async push(event: AgUiEvent): Promise<void> {
    this.#enqueue({ event, settle: undefined, awaited: false, resolve: ignore, reject: ignore });
    if (this.#queue.length >= MAX_QUEUED) await new Promise<void>((resolve) => this.#room.push(resolve));
  }

  async renew(): Promise<void> {
    await this.#init.store.renewLeases(this.runId, this.#init.owner, this.#init.leaseMs);
  }

  /** Stops writing and renewing; the agent is told through {@link signal}. */
  stop(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#stopRenewal();
    this.#abort.abort();
    this.#gathering?.done();
  }

  #enqueue(entry: Queued): void {
    if (this.#failure !== undefined) {
      const { error } = this.#failure;
      this.#failure = undefined;
      throw error;
    }
    if (this.#ended) throw new LeaseLost(this.runId);
    this.#queue.push(entry);
    if (!this.#writing) void this.#drain();
    else if (this.#gathering && (entry.awaited || this.#queue.length >= this.#gathering.full))
      this.#gathering.done();
  }

  async #drain(): Promise<void> {
    this.#writing = true;
    try {
      let wrote = false;
      while (this.#queue.length > 0 && !this.#ended) {
        // These arrived during a commit, so a stream is flowing: they wait (bounded) for company.
        if (wrote) await this.#gather();
        if (this.#ended) break;
        // A batch ends at a terminal event: it settles with it, and nothing follows it.
        const end = this.#queue.findIndex(
          (entry) => entry.event.type === "RUN_FINISHED" || entry.event.type === "RUN_ERROR",
        );
        const batch = this.#queue.splice(0, end < 0 ? MAX_QUEUED : end + 1);
        this.#wakeProducer();
        await this.#write(batch);
        wrote = true;
      }
      // Ended with events still queued (after a terminal or a refusal): they are refused.
      if (this.#queue.length > 0) this.#fail(this.#queue.splice(0), new LeaseLost(this.runId));
    } finally {
      this.#writing = false;
      this.#wakeProducer();
    }
  }

  /** Resolves after the store's commit window, once it holds enough events, or at once for an awaited one. */
  #gather(): Promise<void> | undefined {
    const window = this.#init.store.commitWindow;
    if (window === undefined || window.waitMs <= 0) return undefined;
    const full = Math.min(window.maxEvents, MAX_QUEUED);
    if (this.#queue.length >= full || this.#queue.some((entry) => entry.awaited)) return undefined;
    return new Promise((resolve) => {
      const stopTimer = this.#init.clock.every(window.waitMs, () => done());
      const done = () => {
        stopTimer();
        this.#gathering = undefined;
        resolve();
      };
      this.#gathering = { full, done };
    });
  }

  async #write(batch: Queued[]): Promise<void> {
    const last = batch.at(-1) as Queued;
    let frames: unknown[] | undefined;
    try {
      const events = batch.map((entry) => entry.event);
      frames = await this.#init.store.appendMany(this.runId, this.#init.owner, events, last.settle);
    } catch (error) {
      // What was queued behind it is dropped too: written after a gap, a reader would miss an event.
      this.#fail([...batch, ...this.#queue.splice(0)], error);
      return;
    }
    if (frames === undefined) {
      this.stop();
      this.#fail(batch, new LeaseLost(this.runId));
      return;
    }
    if (last.event.type === "RUN_FINISHED" || last.event.type === "RUN_ERROR") this.stop();
    for (const entry of batch) entry.resolve();
  }

  #fail(entries: readonly Queued[], error: unknown): void {
    for (const entry of entries) entry.reject(error);
    // A caller awaiting one of them learns it; otherwise the next call does.
    if (entries.some((entry) => !entry.awaited) && !entries.some((entry) => entry.awaited))
      this.#failure = { error };
  }

  #wakeProducer(): void {
    if (this.#queue.length >= MAX_QUEUED) return;
    for (const wake of this.#room.splice(0)) wake();
  }
}
