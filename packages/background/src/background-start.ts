import { ErrorKind, OutboxError } from "@agui-outbox/core";
import { errorOf } from "@agui-outbox/core/internal";
import type { RunAgentInput } from "@agui-outbox/core/protocol";
import { actionForResponse, startError } from "./background-actions";
import type { BackgroundEvents } from "./background-events";
import type { BackgroundHttp } from "./background-http";
import type { BackgroundRunLedger } from "./background-run-ledger";
import { type BackgroundRunRecord, createStartingBackgroundRunRecord } from "./background-run-record";
import type { BackgroundRunsOptions, StartBackgroundRunInput } from "./background-runs-options";
import { BackgroundVerdict } from "./background-verdict";
import { backgroundReason, classifyBackgroundSignal } from "./classify-background";
import { userMessageEvents } from "./user-message-events";

export interface BackgroundStartOptions extends Pick<BackgroundRunsOptions, "threads" | "deps"> {
  readonly ledger: BackgroundRunLedger;
  readonly wire: BackgroundHttp;
  readonly events: BackgroundEvents;
  readonly pollIntervalMs: number;
  /** Aborted by `dispose()`: an answer that comes after it is not recorded. */
  readonly lifetime: AbortSignal;
}

/**
 * Starting a run: the record is written ahead (`starting`, with its
 * `Idempotency-Key` and exact body) before the request goes out, and every
 * later try sends the same key and bytes, so the server starts it once.
 */
export class BackgroundStart {
  readonly #options: BackgroundStartOptions;

  constructor(options: BackgroundStartOptions) {
    this.#options = options;
  }

  /** Adds the person's message to the thread and writes the `starting` record. */
  async writeAhead(input: StartBackgroundRunInput): Promise<BackgroundRunRecord> {
    const { threads, ledger } = this.#options;
    const { randomUUID } = this.#options.deps;
    const { threadId } = input;
    for (const event of userMessageEvents(randomUUID(), input.text)) threads.apply(threadId, event);
    const runId = randomUUID();
    const body: RunAgentInput = {
      threadId,
      runId,
      state: {},
      messages: [...threads.get(threadId).messages],
      tools: [],
      context: [],
      forwardedProps: { background: true },
    };
    const starting = createStartingBackgroundRunRecord({
      runId,
      threadId,
      idempotencyKey: randomUUID(),
      startBody: JSON.stringify(body),
      now: ledger.now(),
    });
    await ledger.insert(starting);
    return starting;
  }

  /**
   * Sends the start (again) with the record's key and bytes, and records what
   * the server said. `fromApp`: a refusal is the caller's to hear (the record
   * is dropped and the error thrown); from the loop it is a verdict.
   */
  async send(
    record: BackgroundRunRecord,
    signal: AbortSignal,
    fromApp: boolean,
  ): Promise<BackgroundRunRecord> {
    const { ledger, wire, events } = this.#options;
    const { runId } = record;
    const answer = await wire.start(record.startBody ?? "", record.idempotencyKey ?? runId, signal);
    if (this.#options.lifetime.aborted) {
      throw new OutboxError(ErrorKind.disposed, "The background runner was disposed.");
    }
    if (answer.kind === "ok") {
      const { response } = answer;
      const lastSeq = await events.apply(runId, record.threadId, answer.events, response.lastSeq, signal);
      const now = ledger.now();
      const action = actionForResponse(response, lastSeq, now, this.#options.pollIntervalMs);
      // The first poll goes right away: the server only queued the run.
      await ledger.commit(runId, action.type === "polled" ? { ...action, nextPollAt: now } : action);
      return ledger.get(runId) ?? record;
    }
    const verdict = classifyBackgroundSignal(answer.signal);
    if (verdict.kind === "retry" && answer.signal.type !== "invalid-stream") {
      // The server may have the run: the same key makes the next start find it.
      await ledger.retryLater(record, verdict.retryAfterMs, verdict);
      return ledger.get(runId) ?? record;
    }
    if (fromApp) {
      await ledger.remove(runId);
      throw startError(answer.signal);
    }
    await ledger.settle(runId, {
      verdict: BackgroundVerdict.needsUser,
      rule: verdict.rule,
      reason: backgroundReason(verdict),
      error: verdict.error ?? errorOf(answer.signal),
    });
    return ledger.get(runId) ?? record;
  }
}
