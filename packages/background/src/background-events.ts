import {
  CursorVerdict,
  createEventLog,
  DEFAULT_MAX_EVENT_BYTES,
  DEFAULT_STALL_TIMEOUT_MS,
  type EventLog,
  pumpRunStream,
} from "@agui-outbox/core/internal";
import { EventMiniSchema } from "@agui-outbox/core/protocol";
import type { BackgroundRunLedger } from "./background-run-ledger";
import type { BackgroundRunRecord } from "./background-run-record";
import type { BackgroundRunsOptions } from "./background-runs-options";
import type { BackgroundEvent } from "./decode-background-events";

export interface BackgroundEventsOptions
  extends Pick<
    BackgroundRunsOptions,
    "threads" | "http" | "deps" | "hydrate" | "stallTimeoutMs" | "maxEventBytes"
  > {
  /** The runs' records: a new log starts after the cursor a record holds. */
  readonly ledger: Pick<BackgroundRunLedger, "get">;
}

/** Each run's events applied to its thread once, in order, by cursor; holes filled by re-attach or hydration. */
export class BackgroundEvents {
  readonly #options: BackgroundEventsOptions;
  readonly #logs = new Map<string, EventLog>();

  constructor(options: BackgroundEventsOptions) {
    this.#options = options;
  }

  /** Forgets a run's log (the run is gone, or its record moved past what was applied here). */
  forget(runId: string): void {
    this.#logs.delete(runId);
  }

  /** Drops a log that is behind the stored cursor: whoever stored it applied those events. */
  catchUpTo(runId: string, lastSeq: number): void {
    const log = this.#logs.get(runId);
    if (log && log.lastSeq(runId) < lastSeq) this.#logs.delete(runId);
  }

  clear(): void {
    this.#logs.clear();
  }

  #logFor(runId: string): EventLog {
    let log = this.#logs.get(runId);
    if (!log) {
      log = createEventLog([{ runId, seq: this.#options.ledger.get(runId)?.lastSeq ?? 0 }]);
      this.#logs.set(runId, log);
    }
    return log;
  }

  /**
   * Applies each event past the cursor once, in order, up to `throughSeq` (the
   * answer's `lastSeq`). A hole in the sequence (a poll answered after a token
   * we never saw) is filled from the run's event log first; if that is gone,
   * the thread is hydrated instead.
   */
  async apply(
    runId: string,
    threadId: string,
    events: readonly BackgroundEvent[],
    throughSeq: number,
    signal: AbortSignal,
  ): Promise<number> {
    const { threads } = this.#options;
    for (const { event, cursor } of events) {
      let judged = this.#logFor(runId).accept(cursor);
      if (judged === CursorVerdict.gap && cursor) {
        await this.#fillGap(runId, threadId, cursor.seq - 1, signal);
        judged = this.#logFor(runId).accept(cursor);
      }
      if (judged === CursorVerdict.fresh) threads.apply(threadId, event);
    }
    // A run waiting for an answer polls with no events: after an adopted token the hole ends the answer.
    if (this.#logFor(runId).lastSeq(runId) < throughSeq)
      await this.#fillGap(runId, threadId, throughSeq, signal);
    return this.#logFor(runId).lastSeq(runId);
  }

  /** Brings the thread up to `targetSeq`: re-attach, else hydrate; the cursor moves to `targetSeq` either way. */
  async #fillGap(runId: string, threadId: string, targetSeq: number, signal: AbortSignal): Promise<boolean> {
    const log = this.#logFor(runId);
    if (log.lastSeq(runId) >= targetSeq) return true;
    if (await this.#reattachUntil(runId, threadId, log, targetSeq, signal)) return true;
    if (signal.aborted) throw signal.reason;
    // A failed hydration leaves the thread as it was; the run's record decides what is shown.
    await this.#options.hydrate?.(threadId).catch(() => {});
    this.#logs.set(runId, createEventLog([{ runId, seq: targetSeq }]));
    return false;
  }

  /** Replays the run's events after the cursor until `targetSeq` (the log is tailed live, so stop there). */
  async #reattachUntil(
    runId: string,
    threadId: string,
    log: EventLog,
    targetSeq: number,
    signal: AbortSignal,
  ): Promise<boolean> {
    const { http, threads, deps } = this.#options;
    const local = new AbortController();
    const forward = () => local.abort(signal.reason);
    signal.addEventListener("abort", forward, { once: true });
    try {
      // A failed re-attach is "not re-attached": the caller falls back to hydration.
      const response = await http.reattach(runId, log.lastSeq(runId), local.signal).catch(() => undefined);
      if (!response) return false;
      if (!response.ok) {
        // Releasing a body nobody reads; a failure to cancel changes nothing.
        await response.body?.cancel().catch(() => {});
        return false;
      }
      await pumpRunStream(response, {
        log,
        timers: deps.timers,
        stallTimeoutMs: this.#options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
        maxEventBytes: this.#options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES,
        signal: local.signal,
        onEvent: (event) => {
          threads.apply(threadId, event);
          if (log.lastSeq(runId) >= targetSeq) local.abort();
        },
      });
      return log.lastSeq(runId) >= targetSeq;
    } finally {
      signal.removeEventListener("abort", forward);
    }
  }

  /** Before settling from a status: the events up to its terminal one, or at least the terminal one. */
  async catchUp(
    record: BackgroundRunRecord,
    targetSeq: number,
    terminal: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<number> {
    const filled = await this.#fillGap(record.runId, record.threadId, targetSeq, signal);
    if (!filled && !this.#options.hydrate) {
      const event = EventMiniSchema.safeParse(terminal);
      if (event.success) this.#options.threads.apply(record.threadId, event.data);
    }
    return this.#logFor(record.runId).lastSeq(record.runId);
  }
}
