import type { DeliverySignal } from "@agui-outbox/core";
import { ErrorKind, OutboxError } from "@agui-outbox/core";
import { errorOf } from "@agui-outbox/core/internal";
import type { BackgroundResponse } from "@agui-outbox/core/protocol";
import { EventMiniSchema } from "@agui-outbox/core/protocol";
import type { BackgroundRunAction } from "./background-reducer";
import type { BackgroundRunRecord } from "./background-run-record";
import { BackgroundVerdict } from "./background-verdict";
import { backgroundReason, classifyBackgroundSignal } from "./classify-background";

/* The pure half of the runner: a server's answer or a failure, turned into the reducer's action. */

const RUN_FINISHED_REASON = "The background run finished.";

const completedAt = (at: number, lastSeq: number): BackgroundRunAction => ({
  type: "settled",
  at,
  verdict: BackgroundVerdict.completed,
  rule: "background-completed",
  reason: RUN_FINISHED_REASON,
  error: null,
  status: "completed",
  lastSeq,
  continuationToken: null,
});

/** What a 200 start or poll answer does to the record. */
export function actionForResponse(
  response: BackgroundResponse,
  lastSeq: number,
  at: number,
  pollIntervalMs: number,
): BackgroundRunAction {
  if (response.status === "completed") {
    return completedAt(at, lastSeq);
  }
  if (response.status === "failed") {
    const failure: DeliverySignal = response.error
      ? { type: "run-error", code: response.error.code, message: response.error.message }
      : { type: "run-error", message: "The background run failed without saying why." };
    return {
      ...failedVerdict(failure, at),
      status: response.status,
      lastSeq,
      continuationToken: response.continuationToken,
    };
  }
  if (response.continuationToken === null) {
    return {
      type: "settled",
      at,
      verdict: BackgroundVerdict.needsUser,
      rule: "background-no-token",
      reason: "The server handed out no continuation token for a run that is not finished.",
      error: null,
      status: response.status,
      lastSeq,
    };
  }
  return {
    type: "polled",
    at,
    status: response.status,
    continuationToken: response.continuationToken,
    lastSeq,
    nextPollAt: at + pollIntervalMs,
  };
}

/**
 * The wait before polling a run that waits for a person again: the interval
 * after it began to wait, then twice the last wait, up to `capMs`. Nothing
 * changes until someone answers, and that may take hours.
 */
export function waitingDelay(previous: BackgroundRunRecord, intervalMs: number, capMs: number): number {
  if (previous.status !== "interrupted" || previous.nextPollAt === null) return intervalMs;
  const lastWait = previous.nextPollAt - previous.updatedAt;
  return Math.max(intervalMs, Math.min(capMs, 2 * lastWait));
}

/** What the terminal event a run status names does to the record. */
export function actionForTerminal(
  terminal: Record<string, unknown>,
  lastSeq: number,
  at: number,
): BackgroundRunAction {
  const event = EventMiniSchema.safeParse(terminal);
  if (event.success && event.data.type === "RUN_FINISHED") {
    return completedAt(at, lastSeq);
  }
  const failure: DeliverySignal =
    event.success && event.data.type === "RUN_ERROR"
      ? {
          type: "run-error",
          message: event.data.message,
          ...(event.data.code === undefined ? {} : { code: event.data.code }),
        }
      : { type: "run-error", message: "The run status named a terminal event this client cannot read." };
  return { ...failedVerdict(failure, at), status: "failed", lastSeq, continuationToken: null };
}

/** A failed run: lost when a tool may have run, else needs_user with the raw code. Never a retry. */
export function failedVerdict(
  failure: DeliverySignal,
  at: number,
): Extract<BackgroundRunAction, { type: "settled" }> {
  const verdict = classifyBackgroundSignal(failure);
  return {
    type: "settled",
    at,
    verdict: verdict.kind === "lost" ? BackgroundVerdict.lost : BackgroundVerdict.needsUser,
    rule: verdict.rule,
    reason: backgroundReason(verdict),
    error: verdict.error ?? errorOf(failure),
  };
}

/** Runs the loop drives: polled, waiting to be polled again, or still to be started. */
export function isPolled(record: BackgroundRunRecord): boolean {
  return (
    record.verdict === BackgroundVerdict.polling ||
    record.verdict === BackgroundVerdict.retryWait ||
    record.verdict === BackgroundVerdict.starting
  );
}

export function startError(signal: DeliverySignal): OutboxError {
  switch (signal.type) {
    case "http-status":
      return new OutboxError(
        ErrorKind.http,
        `The agent refused the background run with HTTP ${signal.status}${signal.code ? ` ${signal.code}` : ""}.`,
        { status: signal.status, ...(signal.code === undefined ? {} : { code: signal.code }) },
      );
    case "invalid-stream":
      return new OutboxError(signal.kind, `The agent did not start a background run: ${signal.message}`);
    default:
      return new OutboxError(
        ErrorKind.network,
        "The background run could not be started: the network failed.",
      );
  }
}
