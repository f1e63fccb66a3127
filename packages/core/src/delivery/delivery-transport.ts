import { isOutboxError } from "../errors/outbox-error";
import { EntryState, type OutboxEntry } from "../outbox/entry";
import { outcomesOnly, withRecordedOutcomes } from "../outbox/recorded-outcome";
import type { DeliverySignal } from "../outcome/delivery-signal";
import { type AgUiEvent, EventType, MetadataKey, type StreamCursor } from "../protocol";
import { parseResumeClaimAck } from "../protocol/extension-checks";
import { createEventLog } from "../stream/event-log";
import { type AgentHttp, isHttpFailure } from "../transport/agent-http";
import { withChildSignal } from "../transport/child-signal";
import type { DeliveryContext } from "./delivery-options";
import { verdictOf } from "./delivery-step";
import { pumpRunStream, terminalSignal } from "./pump-run-stream";
import { type ReadFailed, readFailureOf } from "./read-failure";
import { CUT_TYPES, hydratedSignal, withToolEvidence } from "./thread-evidence";

const NO_ACK_REASON = "a resume finished without the recovery contract's claim acknowledgement";

/** The requests of one delivery (POST, re-attach, status, hydration), each reduced to a `DeliverySignal`. */
export class DeliveryTransport {
  readonly #c: DeliveryContext;
  /** The last `retry:` a stream sent: a floor for the next backoff. */
  serverRetryMs: number | undefined;
  /** Per key, the furthest position processed whose write has not started yet. */
  readonly #unsavedProgress = new Map<string, { seq: number; at: number }>();

  constructor(context: DeliveryContext) {
    this.#c = context;
  }

  reset(): void {
    this.#unsavedProgress.clear();
  }

  /** One POST of the entry's exact body, if due; `recovering` records the recovery in the write before it. */
  async send(key: string, recovering = false, body?: string): Promise<DeliverySignal | undefined> {
    const { book } = this.#c;
    const { deps } = this.#c.options;
    const at = deps.now();
    const attempt =
      body === undefined
        ? { type: "attempt-started" as const, at }
        : { type: "attempt-started" as const, at, body };
    const started = recovering
      ? await book.commit(key, { type: "recovered-on-start", at }, attempt)
      : await book.commit(key, attempt);
    if (!started || started.state !== EntryState.sending) return undefined;
    return this.#postSending(started);
  }

  async post(key: string): Promise<DeliverySignal | undefined> {
    const started = this.#c.book.get(key);
    if (!started || started.state !== EntryState.sending) return undefined;
    return this.#postSending(started);
  }

  #postSending(started: OutboxEntry): Promise<DeliverySignal> {
    const { http } = this.#c.options;
    const key = started.key;
    return withChildSignal(this.#c.abortSignal(), async (signal) => {
      let response: Response;
      try {
        response = await http.postRun(started.body, { idempotencyKey: started.key, signal });
      } catch (error) {
        if (signal.aborted) throw error;
        return { type: "network-error", message: isOutboxError(error) ? error.message : "fetch failed" };
      }
      if (!response.ok) return this.#httpSignal(response);
      // Set when the resume's stream starts with no `x-resume` metadata at all on a contract server.
      const noResumeMetadata = { seen: false };
      const pumped = await this.#pump(key, response, signal, undefined, noResumeMetadata);
      // A contract server finishes a resume only after acknowledging (or replaying) its
      // claim: without either, the kind is read again and the thread decides.
      if (noResumeMetadata.seen && pumped.type === "run-finished" && !pumped.replayed) {
        this.#c.options.onKindContradicted?.(NO_ACK_REASON);
        const read = await this.hydrate(key);
        return read.type === "read-failed" ? { type: "network-error", message: read.error.message } : read;
      }
      return pumped;
    });
  }

  async reattach(key: string): Promise<DeliverySignal> {
    const entry = this.#c.book.get(key);
    if (!entry) return { type: "network-error" };
    return withChildSignal(this.#c.abortSignal(), async (signal) => {
      let response: Response;
      try {
        response = await this.#c.options.http.reattach(entry.cursor.runId, entry.cursor.lastSeq, signal);
      } catch (error) {
        if (signal.aborted) throw error;
        return { type: "network-error" };
      }
      if (response.status === 404 || response.status === 410) {
        await response.body?.cancel();
        return { type: "reattach-gone", status: response.status };
      }
      if (!response.ok) return this.#httpSignal(response);
      return this.#pump(key, response, signal, { runId: entry.cursor.runId, seq: entry.cursor.lastSeq });
    });
  }

  async statusThenHydrate(key: string): Promise<DeliverySignal | ReadFailed> {
    const entry = this.#c.book.get(key);
    if (!entry) return readFailureOf("status", undefined);
    let status: Awaited<ReturnType<AgentHttp["runStatus"]>>;
    try {
      status = await this.#c.options.http.runStatus(entry.cursor.runId);
    } catch (error) {
      return readFailureOf("status", error);
    }
    if (isHttpFailure(status)) {
      if (status.status === 404 || status.status === 410) return this.hydrate(key);
      return { type: "http-status", status: status.status, ...(status.code ? { code: status.code } : {}) };
    }
    if (status.terminal) {
      const terminal = terminalSignal(status.terminal as AgUiEvent);
      if (terminal) return outcomesOnly(terminal);
    }
    return { type: "run-status", status: "running" };
  }

  async hydrate(key: string): Promise<DeliverySignal | ReadFailed> {
    const entry = this.#c.book.get(key);
    if (!entry) return readFailureOf("thread", undefined);
    try {
      await this.#c.options.hydrate(entry.threadId);
    } catch (error) {
      return readFailureOf("thread", error);
    }
    return hydratedSignal(this.#c.options.threads, entry, this.#c.options.serverKind());
  }

  async #httpSignal(response: Response): Promise<DeliverySignal> {
    const failure = await this.#c.options.http.failure(response);
    return {
      type: "http-status",
      status: failure.status,
      message: failure.message,
      ...(failure.code ? { code: failure.code } : {}),
      ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
    };
  }

  async #pump(
    key: string,
    response: Response,
    abort: AbortSignal,
    resumeFrom?: StreamCursor,
    noResumeMetadata = { seen: false },
  ): Promise<DeliverySignal> {
    const degraded = this.#c.options.serverKind() === "degraded";
    const signal = await pumpRunStream(response, {
      ...(resumeFrom ? { log: createEventLog([resumeFrom]) } : {}),
      timers: this.#c.options.deps.timers,
      // A server without the contract sends no keepalives and takes a disconnect mid-tool
      // for a cancellation (Agent Framework 1.7.0): our watchdog never cuts its stream.
      stallTimeoutMs: degraded ? Number.POSITIVE_INFINITY : this.#c.options.stallTimeoutMs,
      maxEventBytes: this.#c.options.maxEventBytes,
      signal: abort,
      onRetry: (ms) => {
        this.serverRetryMs = ms;
      },
      // An answer the server echoes that this client did not write goes no further:
      // not to the thread, the other tabs or the entry (docs/decisions.md).
      onEvent: (event, cursor) => this.#onEvent(key, withRecordedOutcomes(event), cursor, noResumeMetadata),
    }).then(outcomesOnly);
    await this.#c.book.settled(key);
    if (!degraded) return signal;
    if (CUT_TYPES.has(signal.type)) await this.#takenByItsStatus(key);
    const entry = this.#c.book.get(key);
    return entry ? withToolEvidence(this.#c.options.threads, this.#c.book, entry, signal) : signal;
  }

  /**
   * Without the contract, a resume answered 200 was taken: its first frames can be lost
   * with the connection (Chromium drops what it buffered when the socket resets), so a
   * stream cut before RUN_STARTED counts as cut after it, and is never resent.
   */
  async #takenByItsStatus(key: string): Promise<void> {
    const entry = this.#c.book.get(key);
    if (!entry || entry.cursor.acked) return;
    const at = this.#c.options.deps.now();
    await this.#c.book.commit(key, { type: "claim-acked", runId: entry.cursor.runId, seq: 0, at });
  }

  #onEvent(
    key: string,
    event: AgUiEvent,
    cursor: StreamCursor | undefined,
    noResumeMetadata: { seen: boolean },
  ): Promise<void> | undefined {
    const { book } = this.#c;
    const { deps } = this.#c.options;
    const entry = book.get(key);
    if (!entry) return undefined;
    // A resume's RUN_ERROR is its answer's outcome, not yet the conversation's: a
    // retried answer did not fail. The verdict shows it (delivery-run.ts).
    if (event.type !== EventType.RUN_ERROR) this.#c.options.threads.apply(entry.threadId, event);
    const at = deps.now();
    if (event.type === EventType.RUN_STARTED) {
      if (this.#c.options.serverKind() === "contract" && event.metadata?.[MetadataKey.resume] === undefined) {
        noResumeMetadata.seen = true;
      }
      const acked = isOurClaimAck(event.metadata?.[MetadataKey.resume], entry);
      const verdict = verdictOf(entry, { type: "run-started", acked }, this.#c.options.serverKind());
      if (verdict.kind === "continue" && verdict.acked) {
        // Awaited: from here a reload re-attaches instead of sending again.
        return book
          .commit(key, {
            type: "claim-acked",
            runId: cursor?.runId ?? entry.runId,
            seq: cursor?.seq ?? 0,
            at,
          })
          .then(() => {});
      }
    }
    if (cursor && cursor.runId === entry.cursor.runId) this.#noteProgress(key, cursor.seq, at);
    return undefined;
  }

  /**
   * Progress is written behind the stream, not in its way: a lagging cursor only replays
   * events the log holds. A burst costs two writes, never one per event, never ahead of what was processed.
   */
  #noteProgress(key: string, seq: number, at: number): void {
    const unsaved = this.#unsavedProgress.get(key);
    if (unsaved !== undefined) {
      if (seq > unsaved.seq) {
        unsaved.seq = seq;
        unsaved.at = at;
      }
      return;
    }
    this.#unsavedProgress.set(key, { seq, at });
    const book = this.#c.book;
    book
      .queueWrite(key, async () => {
        const progress = this.#unsavedProgress.get(key);
        this.#unsavedProgress.delete(key);
        if (progress === undefined || !this.#c.active()) return;
        await book.commitNow(key, [{ type: "event-seen", seq: progress.seq, at: progress.at }]);
      })
      .catch(() => {
        // A failed progress write leaves an older cursor: a re-attach replays a little more.
      });
  }
}

/** The claim ack must name our key and our interrupt: an ack for someone else's claim is not ours. */
function isOurClaimAck(value: unknown, entry: OutboxEntry): boolean {
  const ack = parseResumeClaimAck(value);
  return (
    ack !== undefined && ack.idempotencyKey === entry.key && ack.interruptIds.includes(entry.interruptId)
  );
}
