import { type BatchProgress, EntryState, type OutboxEntry } from "@agui-outbox/core";

/** How a status line should look: calm, in progress, good, or needing attention. */
export const VerdictTone = {
  pending: "pending",
  progress: "progress",
  success: "success",
  warning: "warning",
  danger: "danger",
} as const;
export type VerdictTone = (typeof VerdictTone)[keyof typeof VerdictTone];

export interface VerdictDescription {
  readonly tone: VerdictTone;
  /** One sentence for the person. Never quotes the answer's content except `describeDecision`. */
  readonly sentence: string;
}

/** True when the applied verdict came from the server's recorded outcome, not a new run. */
export function isReplayed(entry: OutboxEntry): boolean {
  return entry.state === EntryState.applied && entry.replayed === true;
}

/** What the server recorded instead of this answer, in words ("approved", "rejected", "cancelled"). */
function recordedElsewhere(entry: OutboxEntry): string | null {
  const [recorded] = entry.recordedDecisions ?? [];
  if (!recorded) return null;
  if (recorded.status === "cancelled") return "the question was cancelled.";
  const payload = recorded.payload as { approved?: unknown; accepted?: unknown } | undefined;
  const approved = payload?.approved ?? payload?.accepted;
  return approved === true ? "it was approved." : approved === false ? "it was rejected." : null;
}

/**
 * Every entry state in one human sentence. `secondsLeft` comes from
 * `useRetryCountdown(entry.nextAttemptAt)`; `batch` from `batchProgress(entries, entry)`.
 */
export function describeVerdict(
  entry: OutboxEntry,
  secondsLeft: number | null = null,
  batch?: BatchProgress,
): VerdictDescription {
  switch (entry.state) {
    case EntryState.held:
      return {
        tone: VerdictTone.pending,
        sentence: batch
          ? `${batch.answered} of ${batch.total} answered — sent when all are answered.`
          : "Saved; sent when every question of this run is answered.",
      };
    case EntryState.stalled:
      return {
        tone: VerdictTone.warning,
        sentence: `${entry.verdictDetail ?? "Delivery is waiting."} Your answer is kept and will be sent again with the same key.`,
      };
    case EntryState.queued:
      return { tone: VerdictTone.pending, sentence: "Saved on this device; sending shortly." };
    case EntryState.sending:
      return { tone: VerdictTone.progress, sentence: "Sending your answer…" };
    case EntryState.streaming:
      return {
        tone: VerdictTone.progress,
        sentence: "Your answer was accepted; the agent is working on it.",
      };
    case EntryState.retryWait: {
      const seconds = secondsLeft ?? 0;
      return {
        tone: VerdictTone.warning,
        sentence: `Retrying in ${seconds}s (attempt ${entry.attempts + 1}).`,
      };
    }
    case EntryState.paused:
      return { tone: VerdictTone.warning, sentence: "Sign in again to send. Your answer is kept." };
    case EntryState.applied:
      return {
        tone: VerdictTone.success,
        sentence: isReplayed(entry) ? "Applied (the server replayed its record)." : "Applied.",
      };
    case EntryState.elsewhere:
      return {
        tone: VerdictTone.warning,
        sentence: `Answered elsewhere: ${recordedElsewhere(entry) ?? entry.verdictDetail ?? "another answer was recorded first."}`,
      };
    case EntryState.lost:
      return {
        tone: VerdictTone.danger,
        sentence: "Outcome unknown — the tool may have run. Your answer is kept.",
      };
    case EntryState.needsUser:
      return {
        tone: VerdictTone.danger,
        sentence: entry.verdictDetail ?? "This answer could not be delivered as it is. Your answer is kept.",
      };
    case EntryState.expired:
      return {
        tone: VerdictTone.danger,
        sentence: "Expired before its outcome could be confirmed. Your answer is kept.",
      };
  }
}
