import { isOutboxError } from "../errors/outbox-error";
import { EntryState, type OutboxEntry } from "../outbox/entry";
import { outcomesOnly, withRecordedOutcomes } from "../outbox/recorded-outcome";
import type { DeliverySignal, ServerKind } from "../outcome/delivery-signal";
import { toolEvidenceIn } from "../outcome/tool-evidence";
import { type AgUiEvent, EventType, MetadataKey, type StreamCursor } from "../protocol";
import { parseResumeClaimAck } from "../protocol/extension-checks";
import { createEventLog } from "../stream/event-log";
import type { ThreadRegistry } from "../thread/thread-registry";
import { type AgentHttp, isHttpFailure } from "../transport/agent-http";
import { withChildSignal } from "../transport/child-signal";
import type { DeliveryDeps } from "./delivery-options";
import { verdictOf } from "./delivery-step";
import type { EntryBook } from "./entry-book";
import { pumpRunStream, terminalSignal } from "./pump-run-stream";
import { type ReadFailed, readFailureOf } from "./read-failure";

export interface DeliveryTransportOptions {
  readonly book: EntryBook;
  readonly http: AgentHttp;
  readonly threads: ThreadRegistry;
  readonly deps: DeliveryDeps;
  readonly serverKind: () => ServerKind;
  /** Hydrates a thread from the server (shared with the thread handles). */
  readonly hydrate: (threadId: string) => Promise<void>;
  readonly stallTimeoutMs: number;
  readonly maxEventBytes: number;
  /** Aborted when delivery stops. */
  readonly abortSignal: () => AbortSignal;
  /** False once delivery stopped: progress is no longer written. */
  readonly active: () => boolean;
  /** The server answered unlike the kind in force: its kind is read again. */
  readonly onContradiction?: (reason: string) => void;
}

/** The ways a stream ends before its terminal event. */
const CUT_TYPES: ReadonlySet<DeliverySignal["type"]> = new Set([
  "network-error",
  "stream-ended",
  "stream-stalled",
  "invalid-stream",
]);

const NO_ACK_REASON = "a resume finished without the recovery contract's claim acknowledgement";

/**
 * The requests one delivery makes, each reduced to a `DeliverySignal`: the POST
 * of the entry's exact bytes, a re-attach after its cursor, a status read and a
 * hydration. The claim ack and the stream's progress are written on the way.
 */
export class DeliveryTransport {
  readonly #options: DeliveryTransportOptions;
  /** The last `retry:` a stream sent: a floor for the next backoff. */
  serverRetryMs: number | undefined;
  /**
   * Keys whose resume stream started with no `x-resume` metadata at all on a
   * contract server: if it then finishes, the contract was not followed.
   */
  readonly #contradicted = new Set<string>();
  /** Per key, the furthest stream position processed whose write has not started yet. */
  readonly #unsavedProgress = new Map<string, { seq: number; at: number }>();

  constructor(options: DeliveryTransportOptions) {
    this.#options = options;
  }

  /** Forgets unsaved progress (delivery stopped). */
  reset(): void {
    this.#unsavedProgress.clear();
  }

  /**
   * One POST of the entry's exact body; undefined when the entry is not due for
   * one. `recovering`: the entry was in flight when the last page died, so the
   * write before the POST also records its recovery.
   */
  async send(key: string, recovering = false, body?: string): Promise<DeliverySignal | undefined> {
    const { book, deps } = this.#options;
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

  /** The POST of an entry whose attempt is already written (`sending`); undefined when it is not. */
  async post(key: string): Promise<DeliverySignal | undefined> {
    const started = this.#options.book.get(key);
    if (!started || started.state !== EntryState.sending) return undefined;
    return this.#postSending(started);
  }

  #postSending(started: OutboxEntry): Promise<DeliverySignal> {
    const { http } = this.#options;
    const key = started.key;
    return withChildSignal(this.#options.abortSignal(), async (signal) => {
      let response: Response;
      try {
        response = await http.postRun(started.body, { idempotencyKey: started.key, signal });
      } catch (error) {
        if (signal.aborted) throw error;
        return { type: "network-error", message: isOutboxError(error) ? error.message : "fetch failed" };
      }
      if (!response.ok) return this.#httpSignal(response);
      const pumped = await this.#pump(key, response, signal);
      // A contract server finishes a resume only after acknowledging its claim
      // (or replaying it). "Finished" without either is a server that is not
      // what we took it for, and no evidence the answer meant what we sent:
      // its kind is read again, and the thread decides.
      const unacked = this.#contradicted.delete(key);
      if (unacked && pumped.type === "run-finished" && !pumped.replayed) {
        this.#options.onContradiction?.(NO_ACK_REASON);
        const read = await this.hydrate(key);
        return read.type === "read-failed" ? { type: "network-error", message: read.error.message } : read;
      }
      return pumped;
    });
  }

  async reattach(key: string): Promise<DeliverySignal> {
    const entry = this.#options.book.get(key);
    if (!entry) return { type: "network-error" };
    return withChildSignal(this.#options.abortSignal(), async (signal) => {
      let response: Response;
      try {
        response = await this.#options.http.reattach(entry.cursor.runId, entry.cursor.lastSeq, signal);
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

  /** The run's status, falling back to hydration where the run is gone; a failed read says what failed. */
  async statusThenHydrate(key: string): Promise<DeliverySignal | ReadFailed> {
    const entry = this.#options.book.get(key);
    if (!entry) return readFailureOf("status", undefined);
    let status: Awaited<ReturnType<AgentHttp["runStatus"]>>;
    try {
      status = await this.#options.http.runStatus(entry.cursor.runId);
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

  /** What the thread shows once hydrated; a failed hydration says what failed. */
  async hydrate(key: string): Promise<DeliverySignal | ReadFailed> {
    const entry = this.#options.book.get(key);
    if (!entry) return readFailureOf("thread", undefined);
    try {
      await this.#options.hydrate(entry.threadId);
    } catch (error) {
      return readFailureOf("thread", error);
    }
    return this.hydratedSignal(entry);
  }

  /** What the thread, as last hydrated, shows about `entry`'s interrupt. */
  hydratedSignal(entry: OutboxEntry): DeliverySignal {
    const thread = this.#options.threads.get(entry.threadId);
    return {
      type: "hydrated",
      toolEvidence: toolEvidenceIn(
        thread.messages,
        entry.toolCallId ?? entry.interruptId,
        this.#options.serverKind(),
      ),
      interruptStillOpen: thread.pendingInterrupts.some((interrupt) => interrupt.id === entry.interruptId),
    };
  }

  /**
   * A finished run on a server without the contract proves nothing by itself: the
   * thread it streamed must show `entry`'s own tool result (outcome/tool-evidence.ts),
   * and, in a batch, whether the server took the other answers but not this one. A
   * stream cut before its end is marked when it already carried the result of every
   * answer of the request: each ran, only the end of the run was not seen.
   */
  withToolEvidence(entry: OutboxEntry, signal: DeliverySignal): DeliverySignal {
    const messages = this.#options.threads.get(entry.threadId).messages;
    const evidenceOf = (member: OutboxEntry) =>
      toolEvidenceIn(messages, member.toolCallId ?? member.interruptId, "degraded");
    if (CUT_TYPES.has(signal.type)) {
      // Every answer of the request ran (its own result arrived): the cut hides only the end.
      const seen = this.#batchMembers(entry).every((member) => evidenceOf(member) === "ran");
      return seen ? ({ ...signal, toolResultsSeen: true } as DeliverySignal) : signal;
    }
    if (signal.type !== "run-finished") return signal;
    const toolEvidence = evidenceOf(entry);
    const others = this.#batchMembers(entry).filter((member) => member.key !== entry.key);
    const skippedInBatch = toolEvidence === "none" && others.some((member) => evidenceOf(member) !== "none");
    const callId = entry.toolCallId ?? entry.interruptId;
    const askedAgain = this.#options.threads
      .get(entry.threadId)
      .pendingInterrupts.some(
        (interrupt) => interrupt.id === entry.interruptId || interrupt.toolCallId === callId,
      );
    return {
      ...signal,
      toolEvidence,
      ...(skippedInBatch ? { skippedInBatch } : {}),
      ...(askedAgain ? { askedAgain } : {}),
    };
  }

  /** The answers one request carries with `entry`'s (its batch), `entry` among them. */
  #batchMembers(entry: OutboxEntry): OutboxEntry[] {
    const batch = entry.batch;
    if (!batch || batch.interruptIds.length < 2) return [entry];
    const sender = batch.sendsWith ?? entry.key;
    return [...this.#options.book.values()].filter(
      (candidate) =>
        candidate.threadId === entry.threadId &&
        (candidate.key === sender || candidate.batch?.sendsWith === sender),
    );
  }

  async #httpSignal(response: Response): Promise<DeliverySignal> {
    const failure = await this.#options.http.failure(response);
    return {
      type: "http-status",
      status: failure.status,
      message: failure.message,
      ...(failure.code ? { code: failure.code } : {}),
      ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
    };
  }

  /** `resumeFrom`: the cursor a re-attach continues after; absent for a fresh POST. */
  async #pump(
    key: string,
    response: Response,
    abort: AbortSignal,
    resumeFrom?: StreamCursor,
  ): Promise<DeliverySignal> {
    const degraded = this.#options.serverKind() === "degraded";
    const signal = await pumpRunStream(response, {
      ...(resumeFrom ? { log: createEventLog([resumeFrom]) } : {}),
      timers: this.#options.deps.timers,
      // A server without the contract sends no keepalives and takes a disconnect
      // mid-tool for a cancellation (Agent Framework 1.7.0 then marks the answer
      // indeterminate): our own watchdog never cuts its stream; the terminal event
      // or the network's own cut ends it.
      stallTimeoutMs: degraded ? Number.POSITIVE_INFINITY : this.#options.stallTimeoutMs,
      maxEventBytes: this.#options.maxEventBytes,
      signal: abort,
      onRetry: (ms) => {
        this.serverRetryMs = ms;
      },
      // An answer the server echoes that this client did not write goes no further:
      // not to the thread, the other tabs or the entry (docs/decisions.md).
      onEvent: (event, cursor) => this.#onEvent(key, withRecordedOutcomes(event), cursor),
    }).then(outcomesOnly);
    // What follows (classifying, re-attaching from the cursor) reads the stored progress.
    await this.#options.book.settled(key);
    if (!degraded) return signal;
    if (CUT_TYPES.has(signal.type)) await this.#takenByItsStatus(key);
    const entry = this.#options.book.get(key);
    return entry ? this.withToolEvidence(entry, signal) : signal;
  }

  /**
   * Without the contract, a resume answered 200 was taken: its first frames can be lost
   * with the connection (Chromium drops what it buffered when the socket resets), so a
   * stream cut before RUN_STARTED counts as cut after it, and is never resent.
   */
  async #takenByItsStatus(key: string): Promise<void> {
    const entry = this.#options.book.get(key);
    if (!entry || entry.cursor.acked) return;
    const at = this.#options.deps.now();
    await this.#options.book.commit(key, { type: "claim-acked", runId: entry.cursor.runId, seq: 0, at });
  }

  /** A promise only when the stream must wait for it (the claim's write). */
  #onEvent(key: string, event: AgUiEvent, cursor: StreamCursor | undefined): Promise<void> | undefined {
    const { book, deps } = this.#options;
    const entry = book.get(key);
    if (!entry) return undefined;
    // A resume's RUN_ERROR is its answer's outcome, not yet the conversation's: a
    // retried answer did not fail. The verdict shows it (delivery-run.ts).
    if (event.type !== EventType.RUN_ERROR) this.#options.threads.apply(entry.threadId, event);
    const at = deps.now();
    if (event.type === EventType.RUN_STARTED) {
      if (this.#options.serverKind() === "contract" && event.metadata?.[MetadataKey.resume] === undefined) {
        this.#contradicted.add(key);
      }
      const acked = isOurClaimAck(event.metadata?.[MetadataKey.resume], entry);
      const verdict = verdictOf(entry, { type: "run-started", acked }, this.#options.serverKind());
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
   * Stream progress is written behind the stream, not in its way: the cursor
   * only decides where a re-attach after a reload starts, and a cursor that
   * lags replays events the log already holds. While one progress write runs,
   * later events only move the position the next write will store, so a burst
   * costs two writes, not one per event. It never runs ahead of what was
   * processed.
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
    const book = this.#options.book;
    book
      .queueWrite(key, async () => {
        const progress = this.#unsavedProgress.get(key);
        this.#unsavedProgress.delete(key);
        if (progress === undefined || !this.#options.active()) return;
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
