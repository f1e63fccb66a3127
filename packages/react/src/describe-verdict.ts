import {
  type BatchProgress,
  type Decision,
  EntryState,
  type OutboxEntry,
  ServerKind,
} from "@agui-outbox/core";
import { describeWaiting } from "./describe-waiting";

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

/** What the sentence depends on besides the entry. */
export interface VerdictContext {
  /** Whole seconds until the next attempt (`useRetryCountdown(entry.nextAttemptAt)`). @default null */
  readonly secondsLeft?: number | null;
  /** The rules in force (`connection.serverKind`). @default "contract" */
  readonly serverKind?: ServerKind;
  /** `connection.online`: offline waits say so instead of counting down. @default true */
  readonly online?: boolean;
  /** For an answer held for its run's other questions: `batchProgress(entries, entry)`. */
  readonly batch?: BatchProgress;
}

/** True when the applied verdict came from the server's recorded outcome, not a new run. */
export function isReplayed(entry: OutboxEntry): boolean {
  return entry.state === EntryState.applied && entry.replayed === true;
}

/** The answer as a noun: "approval", "rejection", "cancellation". */
function noun(decision: Decision): string {
  return decision.kind === "approve" ? "approval" : decision.kind === "reject" ? "rejection" : "cancellation";
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
 * "Applied" for an approval claims the tool ran, which a verdict of `applied`
 * shows (a finished run after the resume, or the tool's result in the thread). A
 * delivered rejection or cancellation ran nothing: it is "delivered", never "applied".
 */
function appliedSentence(entry: OutboxEntry): string {
  const replayed = isReplayed(entry) ? " (the server replayed its record)" : "";
  switch (entry.decision.kind) {
    case "approve":
      return `Applied${replayed}.`;
    case "reject":
      return `Rejection delivered${replayed}.`;
    case "cancel":
      return `Cancellation delivered${replayed}.`;
  }
}

function lostSentence(entry: OutboxEntry, serverKind: ServerKind): string {
  // A rejection or cancellation runs nothing itself: only its arrival is in doubt.
  if (entry.decision.kind !== "approve")
    return `Outcome unknown — your ${noun(entry.decision)} may not have arrived. Your answer is kept.`;
  return serverKind === ServerKind.degraded
    ? "Outcome unknown — the server took your answer but did not say what happened; the tool may have run. Your answer is kept."
    : "Outcome unknown — the tool may have run. Your answer is kept.";
}

function isContext(value: number | null | VerdictContext): value is VerdictContext {
  return value !== null && typeof value === "object";
}

/**
 * Every entry state in one human sentence, for each decision and server kind.
 * The second argument may still be the countdown alone (`describeVerdict(entry, 6)`).
 */
export function describeVerdict(
  entry: OutboxEntry,
  contextOrSeconds: VerdictContext | number | null = {},
): VerdictDescription {
  const context: VerdictContext = isContext(contextOrSeconds)
    ? contextOrSeconds
    : { secondsLeft: contextOrSeconds };
  const serverKind = context.serverKind ?? ServerKind.contract;
  const online = context.online ?? true;
  const what = noun(entry.decision);
  switch (entry.state) {
    case EntryState.held:
      return {
        tone: VerdictTone.pending,
        sentence: context.batch
          ? `${context.batch.answered} of ${context.batch.total} answered — sent when all are answered.`
          : "Waiting for the other questions of this run; sent when all are answered.",
      };
    case EntryState.stalled:
      return {
        tone: VerdictTone.warning,
        sentence: online
          ? `${entry.verdictDetail ?? "Delivery is waiting."} Your answer is kept and will be sent again with the same key.`
          : "Offline — will send when back.",
      };
    case EntryState.queued:
      return {
        tone: VerdictTone.pending,
        sentence: !online
          ? `Offline — your ${what} is saved on this device and will be sent when you are back.`
          : `Your ${what} is saved on this device; sending shortly.`,
      };
    case EntryState.sending:
      return { tone: VerdictTone.progress, sentence: `Sending your ${what}…` };
    case EntryState.streaming:
      return {
        tone: VerdictTone.progress,
        sentence:
          serverKind === ServerKind.degraded
            ? `The server took your ${what}; the agent is working on it.`
            : `The server received your ${what}; the agent is working on it.`,
      };
    case EntryState.retryWait:
      return {
        tone: VerdictTone.warning,
        sentence: describeWaiting(entry, { secondsLeft: context.secondsLeft ?? null, online }),
      };
    case EntryState.paused:
      return { tone: VerdictTone.warning, sentence: "Sign in again to send. Your answer is kept." };
    case EntryState.applied:
      return { tone: VerdictTone.success, sentence: appliedSentence(entry) };
    case EntryState.elsewhere:
      return {
        tone: VerdictTone.warning,
        sentence: `Answered elsewhere: ${recordedElsewhere(entry) ?? entry.verdictDetail ?? "another answer was recorded first."}`,
      };
    case EntryState.lost:
      return { tone: VerdictTone.danger, sentence: lostSentence(entry, serverKind) };
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
    default:
      // A state added by a newer core: never blank.
      return {
        tone: VerdictTone.warning,
        sentence: online
          ? `Your ${what} is kept on this device and will be sent again.`
          : "Offline — will send when back.",
      };
  }
}
