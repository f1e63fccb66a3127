import { EntryState, isFinalState, type OutboxEntry } from "../outbox/entry";

/**
 * The coarse phase of one answer, beside the detailed entry state (as TanStack
 * Query's `status` sits beside `fetchStatus`):
 *
 *   idle ──answer()──▶ saving ──written──▶ sending ◀──▶ waiting
 *                                             │            │
 *                                             └──▶ settled ◀┘
 */
export const ApprovalPhase = {
  idle: "idle",
  saving: "saving",
  /** Written; being sent, or the server is working on it. */
  sending: "sending",
  /** Not delivered yet, and waiting: a backoff, offline, signed out, or the other answers of its run. */
  waiting: "waiting",
  /** A final verdict (applied, answered elsewhere, lost, needs you, expired). */
  settled: "settled",
} as const;
export type ApprovalPhase = (typeof ApprovalPhase)[keyof typeof ApprovalPhase];

export function approvalPhase(entry: OutboxEntry | undefined, saving: boolean): ApprovalPhase {
  if (saving) return ApprovalPhase.saving;
  if (!entry) return ApprovalPhase.idle;
  if (isFinalState(entry.state)) return ApprovalPhase.settled;
  if (entry.state === EntryState.sending || entry.state === EntryState.streaming)
    return ApprovalPhase.sending;
  // queued counts as sending only while it can be sent; otherwise it waits (offline, other answers of its run).
  if (entry.state === EntryState.queued) return ApprovalPhase.sending;
  return ApprovalPhase.waiting;
}

/** Stuck until the network is back or the person signs in again (TanStack Query's `isPaused`). */
export function isPausedEntry(entry: OutboxEntry | undefined, online: boolean): boolean {
  if (!entry || isFinalState(entry.state)) return false;
  return entry.state === EntryState.paused || !online;
}
