/*
 * The outbox entry state machine. `reduceEntry` owns every transition; the
 * store persists each result in its own transaction.
 *
 *  createEntry
 *       │
 *       ▼          attempt-started                claim-acked
 *    queued ─────────────────────────► sending ──────────────────► streaming ◄─┐ verdict reattach,
 *     ▲  ▲                              ▲   │                         │  └─────┘ event-seen, claim-acked
 *     │  │                              │   │ verdict retry           │
 *     │  │ retry-now    attempt-started │   ▼                         │ verdict retry
 *     │  └────────────────────────── retry_wait ◄─────────────────────┘
 *     │                      (once at ≥ nextAttemptAt)
 *     │ resumed-auth
 *   paused ◄── verdict paused ── sending | streaming
 *
 *   sending | streaming ── verdict status_then_hydrate | hydrate_then_decide ──► same state
 *                          (the transport reads status / the thread; the next verdict decides)
 *   any non-final ──────── verdict applied | elsewhere | lost | needs_user ────► that final state
 *   any non-final ──────── expired (at ≥ expiresAt) ────────────────────────────► expired
 *   recovered-on-start ─── sending → queued (same key and bytes; the retry path)
 *                          streaming (acked) stays: the transport re-attaches
 *
 * Final states (applied, elsewhere, lost, needs_user, expired) accept no action:
 * a changed decision is a new entry with a new key.
 *
 * The reducer is fed by the network and by timers, so it never throws: an action
 * that does not apply to the entry's state (a late event, a duplicate ack, an
 * early retry) returns the entry unchanged — the very same object, so callers can
 * skip the write with `next === entry`.
 */

import type { Verdict } from "../outcome/verdict";
import { type Decision, type DeliveryCounters, isFinalState, NO_COUNTERS, type OutboxEntry } from "./entry";
import type { EntryAction } from "./reducer-actions";

export type { EntryAction, EntryActionType } from "./reducer-actions";

/** Entries are kept for 23 h, less than the server's 24 h idempotency window. */
export const DEFAULT_RETENTION_MS = 23 * 60 * 60 * 1000;

export interface CreateEntryInput {
  readonly key: string;
  readonly namespace: string;
  readonly threadId: string;
  readonly interruptId: string;
  readonly runId: string;
  readonly body: string;
  readonly decision: Decision;
  readonly now: number;
  /** How long the entry is kept before reconciliation. @default 82800000 (23 h) */
  readonly retentionMs?: number;
  /** Set when the run asked more than one question: the entry starts `held`. */
  readonly batch?: OutboxEntry["batch"];
}

export function createEntry(input: CreateEntryInput): OutboxEntry {
  return {
    key: input.key,
    namespace: input.namespace,
    threadId: input.threadId,
    interruptId: input.interruptId,
    runId: input.runId,
    body: input.body,
    decision: input.decision,
    ...(input.batch ? { batch: input.batch } : {}),
    state: input.batch ? "held" : "queued",
    attempts: 0,
    nextAttemptAt: null,
    cursor: { runId: input.runId, lastSeq: 0, acked: false },
    lastError: null,
    verdictDetail: null,
    everSent: false,
    createdAt: input.now,
    updatedAt: input.now,
    expiresAt: input.now + (input.retentionMs ?? DEFAULT_RETENTION_MS),
  };
}

const EXPIRED_DETAIL =
  "The answer was kept past the server's retention window and its outcome could not be confirmed. It is kept.";

const inFlight = (entry: OutboxEntry) => entry.state === "sending" || entry.state === "streaming";

function notBefore(entry: OutboxEntry, at: number): boolean {
  return entry.nextAttemptAt !== null && at < entry.nextAttemptAt;
}

/** The entry's persisted counters (entries from before counters existed start at zero). */
export function countersOf(entry: OutboxEntry): DeliveryCounters {
  return entry.counters ?? NO_COUNTERS;
}

/** A fresh budget: what a resumed stalled entry starts with. */
function resumedCounters(entry: OutboxEntry): DeliveryCounters {
  return {
    ...countersOf(entry),
    serverFailures: 0,
    reattachesWithoutProgress: 0,
    budgetChecks: 0,
    failedReads: 0,
  };
}

function positive(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : 0;
}

function applyVerdict(
  entry: OutboxEntry,
  verdict: Verdict,
  at: number,
  nextAttemptAt: number | undefined,
): OutboxEntry {
  // A verdict without a failure behind it keeps the previous one visible, except
  // success, which clears it.
  const lastError = verdict.error ?? (verdict.kind === "applied" ? null : entry.lastError);
  const settle = (state: OutboxEntry["state"], next: number | null): OutboxEntry => ({
    ...entry,
    state,
    nextAttemptAt: next,
    lastError,
    verdictDetail: verdict.reason,
    rule: verdict.rule,
    updatedAt: at,
  });
  switch (verdict.kind) {
    case "applied":
      return { ...settle(verdict.kind, null), replayed: verdict.replayed };
    case "elsewhere":
      return { ...settle(verdict.kind, null), recordedDecisions: verdict.recordedDecisions };
    case "lost":
    case "needs_user":
      return settle(verdict.kind, null);
    case "retry": {
      if (!inFlight(entry)) return entry;
      // Never earlier than the server's Retry-After, whatever backoff the caller computed.
      const floor = at + positive(verdict.retryAfterMs);
      const requested = nextAttemptAt !== undefined && Number.isFinite(nextAttemptAt) ? nextAttemptAt : at;
      return settle("retry_wait", Math.max(requested, floor));
    }
    case "reattach":
      if (!inFlight(entry)) return entry;
      return settle(
        "streaming",
        nextAttemptAt !== undefined && Number.isFinite(nextAttemptAt) ? nextAttemptAt : null,
      );
    case "paused":
      if (!inFlight(entry)) return entry;
      return settle("paused", null);
    case "status_then_hydrate":
    case "hydrate_then_decide":
      if (!inFlight(entry)) return entry;
      return settle(entry.state, null);
    case "continue":
      // Not an outcome: the transport dispatches `claim-acked` with the cursor.
      return entry;
    default:
      return entry;
  }
}

/** The entry after `action`; the same object when the action does not apply. Never throws. */
export function reduceEntry(entry: OutboxEntry, action: EntryAction): OutboxEntry {
  if (isFinalState(entry.state)) return entry;
  switch (action.type) {
    case "attempt-started": {
      if (entry.state !== "queued" && entry.state !== "retry_wait") return entry;
      if (notBefore(entry, action.at)) return entry;
      // The bytes are fixed once: a body built earlier is never re-shaped.
      const body = entry.body === "" ? (action.body ?? "") : entry.body;
      if (body === "") return entry;
      const counters = countersOf(entry);
      return {
        ...entry,
        body,
        counters: counters.firstSentAt === null ? { ...counters, firstSentAt: action.at } : counters,
        state: "sending",
        attempts: entry.attempts + 1,
        everSent: true,
        nextAttemptAt: null,
        // A new POST starts a new stream: its ack and sequence numbers start over.
        cursor: { runId: entry.runId, lastSeq: 0, acked: false },
        verdictDetail: null,
        updatedAt: action.at,
      };
    }
    case "sealed":
      if (entry.state !== "held") return entry;
      return {
        ...entry,
        state: "queued",
        runId: action.runId,
        body: action.body,
        cursor: { runId: action.runId, lastSeq: 0, acked: false },
        ...(entry.batch
          ? { batch: action.sendsWith ? { ...entry.batch, sendsWith: action.sendsWith } : entry.batch }
          : {}),
        updatedAt: action.at,
      };
    case "follow": {
      const leader = action.leader;
      // A final verdict is each answer's own (settled per interrupt), never copied.
      if (entry.state === "held" || isFinalState(leader.state)) return entry;
      return {
        ...entry,
        state: leader.state,
        body: leader.body,
        attempts: leader.attempts,
        nextAttemptAt: leader.nextAttemptAt,
        cursor: leader.cursor,
        lastError: leader.lastError,
        verdictDetail: leader.verdictDetail,
        everSent: leader.everSent,
        counters: countersOf(leader),
        updatedAt: action.at,
      };
    }
    case "counted":
      return {
        ...entry,
        counters: action.counters,
        ...(action.error === undefined ? {} : { lastError: action.error }),
        updatedAt: action.at,
      };
    case "stalled":
      if (entry.state === "held" || entry.state === "paused") return entry;
      return {
        ...entry,
        state: "stalled",
        nextAttemptAt: null,
        lastError: action.error ?? entry.lastError,
        verdictDetail: action.reason,
        updatedAt: action.at,
      };
    case "claim-acked": {
      if (!inFlight(entry)) return entry;
      // biome-ignore lint/complexity/useMathMinMax: Math.max would let a NaN from the wire poison the cursor.
      const lastSeq = action.seq > entry.cursor.lastSeq ? action.seq : entry.cursor.lastSeq;
      if (entry.state === "streaming" && entry.cursor.acked && entry.cursor.runId === action.runId) {
        if (lastSeq === entry.cursor.lastSeq) return entry;
        return { ...entry, cursor: { ...entry.cursor, lastSeq }, updatedAt: action.at };
      }
      return {
        ...entry,
        state: "streaming",
        cursor: { runId: action.runId, lastSeq, acked: true },
        updatedAt: action.at,
      };
    }
    case "event-seen":
      if (!inFlight(entry)) return entry;
      // Monotonic: a replayed or out-of-order frame never moves the cursor back.
      if (!(action.seq > entry.cursor.lastSeq)) return entry;
      return { ...entry, cursor: { ...entry.cursor, lastSeq: action.seq }, updatedAt: action.at };
    case "verdict":
      return applyVerdict(entry, action.verdict, action.at, action.nextAttemptAt);
    case "resumed-auth":
      if (entry.state !== "paused") return entry;
      return { ...entry, state: "queued", nextAttemptAt: null, updatedAt: action.at };
    case "retry-now":
      if (entry.state === "stalled") {
        return { ...entry, state: "queued", counters: resumedCounters(entry), updatedAt: action.at };
      }
      if (entry.state !== "retry_wait") return entry;
      return { ...entry, state: "queued", nextAttemptAt: null, updatedAt: action.at };
    case "expired":
      if (action.at < entry.expiresAt) return entry;
      return {
        ...entry,
        state: "expired",
        nextAttemptAt: null,
        verdictDetail: EXPIRED_DETAIL,
        updatedAt: action.at,
      };
    case "recovered-on-start":
      // Keep the key and the bytes: the server's idempotency makes a resend safe,
      // and an acknowledged run is re-attached rather than resent.
      if (entry.state === "streaming" && entry.cursor.acked) return entry;
      if (entry.state === "stalled") {
        return { ...entry, state: "queued", counters: resumedCounters(entry), updatedAt: action.at };
      }
      if (!inFlight(entry)) return entry;
      return { ...entry, state: "queued", nextAttemptAt: null, updatedAt: action.at };
    default:
      return entry;
  }
}
