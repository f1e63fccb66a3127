import type { StoreApi } from "zustand/vanilla";
import { ErrorKind, isOutboxError } from "../errors/outbox-error";
import { EntryState, type OutboxEntry } from "../outbox/entry";
import { backoffDelay } from "../retry/backoff";
import type { AgentHttp } from "../transport/agent-http";
import type { OutboxDeps } from "./deps";
import type { ConnectionState, OutboxState } from "./outbox-state";

/** The widest window between two probes: a server that is back is noticed within it. */
export const PROBE_CAP_MS = 4_000;

/** An answer that waits only because the network failed: what the server's return ends. */
export function waitsOnNetwork(entry: OutboxEntry): boolean {
  return entry.state === EntryState.retryWait && entry.lastError?.kind === ErrorKind.network;
}

export interface ServerReturnOptions {
  readonly http: Pick<AgentHttp, "capabilities">;
  readonly deps: Pick<OutboxDeps, "timers" | "random" | "now">;
  readonly outbox: StoreApi<OutboxState>;
  readonly connection: StoreApi<ConnectionState>;
  /** The client's lifetime: once aborted, no probe is asked or scheduled. */
  readonly signal: AbortSignal;
  readonly isLeader: () => boolean;
  /** The server answered again: the waiting answers go now, and its kind is read again. */
  readonly onReturn: () => void;
}

/**
 * While the sending tab has an answer waiting on a network failure, the server is
 * asked for its capabilities on a full-jitter backoff capped at `PROBE_CAP_MS`:
 * an answer's own backoff grows to 30 s, and a server back after a crash would
 * otherwise wait that long for it. Any answer but a 5xx is the server's return.
 *
 * Bounded: a probe is asked only while an answer waits on the network, and each
 * wake-up it causes is a retry that spends that answer's budget, so a server
 * that answers probes but not resumes ends in `stalled` (which a probe never
 * wakes). The record is the link: `unreachable` with the next probe's time.
 */
export class ServerReturn {
  readonly #options: ServerReturnOptions;
  #timer: unknown;
  #attempt = 0;

  constructor(options: ServerReturnOptions) {
    this.#options = options;
    const unsubscribe = options.outbox.subscribe(() => this.#check());
    options.signal.addEventListener(
      "abort",
      () => {
        unsubscribe();
        this.#cancel();
      },
      { once: true },
    );
  }

  #waiting(): boolean {
    return this.#options.isLeader() && this.#options.outbox.getState().entries.some(waitsOnNetwork);
  }

  #check(): void {
    if (this.#options.signal.aborted) return;
    if (!this.#waiting()) {
      this.#cancel();
      this.#attempt = 0;
    } else if (this.#timer === undefined) {
      this.#schedule();
    }
  }

  #schedule(): void {
    const { deps, connection } = this.#options;
    const delay = backoffDelay(this.#attempt, { capMs: PROBE_CAP_MS, random: deps.random });
    this.#attempt += 1;
    const link = connection.getState().link;
    if (link.name === "connected" || link.name === "unreachable") {
      const reason = "The server did not answer; asking again.";
      connection.setState({ link: { name: "unreachable", reason, retryAt: deps.now() + delay } });
    }
    this.#timer = deps.timers.setTimeout(() => void this.#probe(), delay);
  }

  async #probe(): Promise<void> {
    const { http, signal } = this.#options;
    if (signal.aborted || !this.#waiting()) {
      this.#timer = undefined;
      return;
    }
    const back = await http.capabilities(signal).then(
      () => true,
      (error: unknown) =>
        isOutboxError(error) && error.kind === ErrorKind.http && (error.status ?? 500) < 500,
    );
    this.#timer = undefined;
    if (signal.aborted) return;
    if (back) {
      this.#attempt = 0;
      this.#options.onReturn();
    } else if (this.#waiting()) {
      this.#schedule();
    }
  }

  #cancel(): void {
    if (this.#timer !== undefined) this.#options.deps.timers.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
