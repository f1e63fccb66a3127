import type { DeliverySignal, Verdict } from "@agui-outbox/core";
import { errorOf, type HttpFailure, isHttpFailure, planRetry } from "@agui-outbox/core/internal";
import type { RunStatus } from "@agui-outbox/core/protocol";
import { actionForTerminal } from "./background-actions";
import type { BackgroundEvents } from "./background-events";
import type { BackgroundRunLedger } from "./background-run-ledger";
import type { BackgroundRunRecord } from "./background-run-record";
import type { BackgroundRunsOptions } from "./background-runs-options";
import { BackgroundVerdict } from "./background-verdict";
import { backgroundReason, classifyBackgroundSignal } from "./classify-background";

export interface BackgroundRecoveryOptions extends Pick<BackgroundRunsOptions, "http" | "hydrate"> {
  readonly ledger: BackgroundRunLedger;
  readonly events: BackgroundEvents;
}

/**
 * A STALE or UNKNOWN token: the run's status names the current token (adopt
 * it), or how the run ended (catch up, settle); a run the server forgot ends
 * in `needs_user` with the thread hydrated.
 */
export class BackgroundRecovery {
  readonly #options: BackgroundRecoveryOptions;

  constructor(options: BackgroundRecoveryOptions) {
    this.#options = options;
  }

  async recover(record: BackgroundRunRecord, verdict: Verdict, signal: AbortSignal): Promise<void> {
    const { ledger, http, events } = this.#options;
    let status: RunStatus | HttpFailure;
    try {
      status = await http.runStatus(record.runId);
    } catch {
      if (signal.aborted) return;
      await ledger.retryLater(record, undefined, {
        reason: "The run status could not be read; trying again.",
        rule: verdict.rule,
        error: { kind: "network", message: "The run status request failed." },
      });
      return;
    }
    if (isHttpFailure(status)) {
      if (status.status === 404 || status.status === 410) await this.#giveUp(record, verdict);
      else await this.#onStatusFailure(record, status);
      return;
    }
    if (status.terminal !== null) {
      const lastSeq = await events.catchUp(record, status.lastSeq, status.terminal, signal);
      await ledger.commit(record.runId, actionForTerminal(status.terminal, lastSeq, ledger.now()));
      return;
    }
    const adopted = status.continuationToken;
    if (adopted !== null && adopted !== record.continuationToken) {
      await this.#adopt(record, adopted, verdict);
      return;
    }
    // The status names our own token (or none) while the run goes on: ask again later.
    await ledger.retryLater(record, undefined, verdict);
  }

  /** A newer token: poll on with it, unless the run kept moving past us for the whole budget. */
  async #adopt(record: BackgroundRunRecord, continuationToken: string, verdict: Verdict): Promise<void> {
    const { ledger } = this.#options;
    const now = ledger.now();
    const budget = planRetry(
      { attempts: record.attempts + 1, firstAttemptAt: record.failingSince ?? now, now },
      ledger.retry,
    );
    if (budget.kind === "exhausted") {
      await ledger.settle(record.runId, {
        verdict: BackgroundVerdict.needsUser,
        rule: "retry-budget-exhausted",
        reason: "The run kept moving past the held token; reload the conversation.",
        error: verdict.error,
      });
      return;
    }
    await ledger.commit(record.runId, {
      type: "token-adopted",
      at: now,
      continuationToken,
      reason: verdict.reason,
      rule: verdict.rule,
      error: verdict.error,
    });
  }

  async #onStatusFailure(record: BackgroundRunRecord, failure: HttpFailure): Promise<void> {
    const { ledger } = this.#options;
    const signal: DeliverySignal = {
      type: "http-status",
      status: failure.status,
      message: failure.message,
      ...(failure.code === undefined ? {} : { code: failure.code }),
      ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }),
    };
    const verdict = classifyBackgroundSignal(signal);
    if (verdict.kind === "retry") {
      await ledger.retryLater(record, verdict.retryAfterMs, verdict);
      return;
    }
    await ledger.settle(record.runId, {
      verdict: BackgroundVerdict.needsUser,
      rule: verdict.rule,
      reason: backgroundReason(verdict),
      error: verdict.error ?? errorOf(signal),
    });
  }

  /** The server forgot the run: show the thread as the server has it, and say so. */
  async #giveUp(record: BackgroundRunRecord, verdict: Verdict): Promise<void> {
    const { hydrate, ledger } = this.#options;
    const hydrated = hydrate
      ? await hydrate(record.threadId).then(
          () => true,
          () => false,
        )
      : false;
    await ledger.settle(record.runId, {
      verdict: BackgroundVerdict.needsUser,
      rule: verdict.rule,
      reason: hydrated
        ? "The server no longer knows this background run; the conversation was reloaded from the server."
        : "The server no longer knows this background run; reload the conversation to see where it stands.",
      error: verdict.error,
    });
  }
}
