import type { EntryState, OutboxEntry } from "@agui-outbox/core";

/**
 * The names of the `CUSTOM` events a durable run adds to its AG-UI sequence.
 * Subscribers read them in `onCustomEvent`; apps that ignore them still see a
 * well-formed run that ends in `RUN_FINISHED` or `RUN_ERROR`.
 */
export const DurableEventName = {
  /** A delivery changed state (sending, retrying, offline, paused…): progress, not an end. */
  delivery: "agui-outbox.delivery",
  /** An answer reached its verdict. One per answered interrupt, before the run's last event. */
  verdict: "agui-outbox.verdict",
} as const;
export type DurableEventName = (typeof DurableEventName)[keyof typeof DurableEventName];

/**
 * `RUN_ERROR.code` of a durable run whose answer did not take effect. A run
 * whose answer needs the person again (an invalid answer, a stale card) does
 * not end in an error: it finishes with the interrupt still open, so the card
 * is shown again, and its verdict event says why.
 */
export const DurableRunErrorCode = {
  /** Another decision resolved the interrupt first (another tab, device or person). */
  answeredElsewhere: "AGUI_OUTBOX_ANSWERED_ELSEWHERE",
  /** The outcome is unknown: the tool may have run. The answer is kept in the outbox. */
  lost: "AGUI_OUTBOX_LOST",
  /** Kept past the retention window with no verdict reachable. */
  expired: "AGUI_OUTBOX_EXPIRED",
  /** A resume payload the agent cannot read as an approval, a rejection or a cancellation. */
  unreadableAnswer: "AGUI_OUTBOX_UNREADABLE_ANSWER",
} as const;
export type DurableRunErrorCode = (typeof DurableRunErrorCode)[keyof typeof DurableRunErrorCode];

/** `value` of an `agui-outbox.delivery` event. */
export interface DeliveryProgress {
  readonly interruptId: string;
  /** The outbox entry's id (what `retryNow` and the outbox store take). */
  readonly key: string;
  /**
   * The `Idempotency-Key` the answer travels under. The entry's own key, except
   * for a run that asked several questions: one resume carries all its answers,
   * under the key of the entry that sends it. Null while that is not settled yet
   * (`held`: another question of the run is still unanswered).
   */
  readonly idempotencyKey: string | null;
  readonly state: EntryState;
  readonly attempts: number;
  /** Epoch ms of the next attempt while waiting to retry, else null. */
  readonly nextAttemptAt: number | null;
  readonly lastError: OutboxEntry["lastError"];
}

/** The final answer of one interrupt, as `agui-outbox.verdict` carries it. */
export type AnswerVerdict =
  | "applied"
  | "answered_elsewhere"
  | "lost"
  | "needs_you"
  | "expired"
  /** Refused before anything was stored: the answer did not match the interrupt's schema. */
  | "invalid";

/** `value` of an `agui-outbox.verdict` event. */
export interface VerdictDetail {
  readonly interruptId: string;
  readonly verdict: AnswerVerdict;
  /** The outbox entry's id, when the answer was stored. */
  readonly key: string | null;
  /** The `Idempotency-Key` the answer was sent under (see `DeliveryProgress.idempotencyKey`); null when not sent. */
  readonly idempotencyKey: string | null;
  /** The `runId` the answer was sent with: fresh per decision, unlike the run that asked. */
  readonly wireRunId: string | null;
  /** Applied from the server's record of an earlier delivery: nothing ran again. */
  readonly replayed: boolean;
  /** Why, in words the app can show. */
  readonly detail: string | null;
  /** For `answered_elsewhere`: the decisions the server recorded, to show instead of ours. */
  readonly recordedDecisions: OutboxEntry["recordedDecisions"] | null;
}

export function verdictOfEntry(entry: OutboxEntry): AnswerVerdict | undefined {
  switch (entry.state) {
    case "applied":
      return "applied";
    case "elsewhere":
      return "answered_elsewhere";
    case "lost":
      return "lost";
    case "needs_user":
      return "needs_you";
    case "expired":
      return "expired";
    default:
      return undefined;
  }
}

export function verdictDetail(entry: OutboxEntry, verdict: AnswerVerdict): VerdictDetail {
  return {
    interruptId: entry.interruptId,
    verdict,
    key: entry.key,
    idempotencyKey: idempotencyKeyOf(entry),
    wireRunId: entry.runId,
    replayed: entry.replayed === true,
    detail: entry.verdictDetail ?? entry.lastError?.message ?? null,
    recordedDecisions: entry.recordedDecisions ?? null,
  };
}

export function deliveryProgress(entry: OutboxEntry): DeliveryProgress {
  return {
    interruptId: entry.interruptId,
    key: entry.key,
    idempotencyKey: idempotencyKeyOf(entry),
    state: entry.state,
    attempts: entry.attempts,
    nextAttemptAt: entry.nextAttemptAt,
    lastError: entry.lastError,
  };
}

/** The key on the wire: a batched answer rides in the request of the entry named by `sendsWith`. */
export function idempotencyKeyOf(entry: OutboxEntry): string | null {
  if (entry.state === "held") return null;
  return entry.batch?.sendsWith ?? entry.key;
}
