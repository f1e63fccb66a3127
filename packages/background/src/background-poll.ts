import type { DeliverySignal } from "@agui-outbox/core";
import { DEFAULT_BACKOFF_CAP_MS, errorOf } from "@agui-outbox/core/internal";
import { actionForResponse, waitingDelay } from "./background-actions";
import type { BackgroundEvents } from "./background-events";
import type { BackgroundHttp } from "./background-http";
import type { BackgroundRecovery } from "./background-recovery";
import type { BackgroundRunLedger } from "./background-run-ledger";
import type { BackgroundRunRecord } from "./background-run-record";
import type { BackgroundStart } from "./background-start";
import { BackgroundVerdict } from "./background-verdict";
import { backgroundReason, classifyBackgroundSignal } from "./classify-background";

export interface BackgroundPollOptions {
  readonly ledger: BackgroundRunLedger;
  readonly wire: BackgroundHttp;
  readonly events: BackgroundEvents;
  readonly start: BackgroundStart;
  readonly recovery: BackgroundRecovery;
  readonly pollIntervalMs: number;
}

/** One request for a run that is due: its start sent again, or a poll with the held token. */
export class BackgroundPoll {
  readonly #options: BackgroundPollOptions;

  constructor(options: BackgroundPollOptions) {
    this.#options = options;
  }

  async step(record: BackgroundRunRecord, signal: AbortSignal): Promise<void> {
    if (record.verdict === BackgroundVerdict.starting) await this.#options.start.send(record, signal, false);
    else await this.#poll(record, signal);
  }

  async #poll(record: BackgroundRunRecord, signal: AbortSignal): Promise<void> {
    const { ledger, wire, events, pollIntervalMs } = this.#options;
    const token = record.continuationToken;
    if (token === null) {
      await ledger.settle(record.runId, {
        verdict: BackgroundVerdict.needsUser,
        rule: "background-no-token",
        reason: "The run is not finished but no continuation token is held; reload the conversation.",
        error: null,
      });
      return;
    }
    const answer = await wire.poll(token, signal);
    // An answer that arrived in full is processed even if polling stopped meanwhile:
    // dropping it would leave a stale token behind.
    if (answer.kind !== "ok") {
      await this.#onFailure(record, answer.signal, signal);
      return;
    }
    const { response } = answer;
    const lastSeq = await events.apply(
      record.runId,
      record.threadId,
      answer.events,
      response.lastSeq,
      signal,
    );
    const wait =
      response.status === "interrupted"
        ? waitingDelay(record, pollIntervalMs, ledger.retry.backoff?.capMs ?? DEFAULT_BACKOFF_CAP_MS)
        : pollIntervalMs;
    await ledger.commit(record.runId, actionForResponse(response, lastSeq, ledger.now(), wait));
  }

  async #onFailure(record: BackgroundRunRecord, failure: DeliverySignal, signal: AbortSignal): Promise<void> {
    const { ledger, recovery } = this.#options;
    const verdict = classifyBackgroundSignal(failure);
    switch (verdict.kind) {
      case "retry":
        await ledger.retryLater(record, verdict.retryAfterMs, verdict);
        return;
      case "status_then_hydrate":
        await recovery.recover(record, verdict, signal);
        return;
      case "paused":
        await ledger.commit(record.runId, {
          type: "paused",
          at: ledger.now(),
          reason: "Sign-in is needed before the background run can be followed.",
          error: verdict.error,
        });
        return;
      case "lost":
        await ledger.settle(record.runId, {
          verdict: BackgroundVerdict.lost,
          rule: verdict.rule,
          reason: backgroundReason(verdict),
          error: verdict.error,
        });
        return;
      default:
        await ledger.settle(record.runId, {
          verdict: BackgroundVerdict.needsUser,
          rule: verdict.rule,
          reason: backgroundReason(verdict),
          error: verdict.error ?? errorOf(failure),
        });
    }
  }
}
