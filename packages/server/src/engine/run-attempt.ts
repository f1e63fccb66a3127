import type { AgUiEvent } from "@agui-outbox/core/protocol";
import type { ContractStore } from "../store/contract-store";
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

/**
 * One pass of a run on this instance, from its `beginRun` to its one terminal
 * event. Keeps its leases (the run's and its claims') renewed while it is
 * alive, and stops for good the moment a write is refused.
 */
export class RunAttempt {
  readonly runId: string;
  readonly threadId: string;
  readonly startSeq: number;
  readonly identity: string | undefined;
  readonly #init: RunAttemptInit;
  readonly #abort = new AbortController();
  readonly #stopRenewal: () => void;
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

  /** Appends one event; a terminal one ends the attempt. Throws {@link LeaseLost} when refused. */
  async emit(event: AgUiEvent, settle?: Settlement): Promise<void> {
    if (this.#ended) throw new LeaseLost(this.runId);
    const frame = await this.#init.store.append(this.runId, this.#init.owner, event, settle);
    if (frame === undefined) {
      this.stop();
      throw new LeaseLost(this.runId);
    }
    if (event.type === "RUN_FINISHED" || event.type === "RUN_ERROR") this.stop();
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
  }
}
