import type { RecordedDecision } from "../protocol/extensions";
import type { EntryQuestion } from "./entry-question";

/** Data only: enough to resend the answer byte for byte after a reload and say what happened. */
export const EntryState = {
  /** Written durably, not yet sent. */
  queued: "queued",
  /** The request is in flight; no claim acknowledgement yet. */
  sending: "sending",
  /** The server acknowledged the claim; the run's events are streaming. */
  streaming: "streaming",
  /** Waiting for `nextAttemptAt` before sending again with the same key and body. */
  retryWait: "retry_wait",
  /** The server rejected our credentials; waiting for the app to re-authenticate. */
  paused: "paused",
  /** Answered and kept; sent with the run's other answers (AG-UI resumes a run's interrupts at once). */
  held: "held",
  /** Not final: retries spent, answer kept; resumes on online, visible, `retryNow()` or a start. */
  stalled: "stalled",
  /** Final: the answer took effect (possibly replayed). */
  applied: "applied",
  /** Final: another decision resolved the interrupt first. */
  elsewhere: "elsewhere",
  /** Final: the outcome is unknown (the tool may have run); the answer is kept. */
  lost: "lost",
  /** Final until the person acts: the answer is kept but cannot be delivered as is. */
  needsUser: "needs_user",
  /** Final: kept past the retention window with no verdict reachable. */
  expired: "expired",
} as const;
export type EntryState = (typeof EntryState)[keyof typeof EntryState];

export const FINAL_STATES: ReadonlySet<EntryState> = new Set<EntryState>([
  EntryState.applied,
  EntryState.elsewhere,
  EntryState.lost,
  EntryState.needsUser,
  EntryState.expired,
]);

export function isFinalState(state: EntryState): boolean {
  return FINAL_STATES.has(state);
}

/** Verdicts that ask nothing more of anyone: a start leaves them to be read on demand. */
export const SETTLED_STATES: readonly EntryState[] = [
  EntryState.applied,
  EntryState.elsewhere,
  EntryState.expired,
];

/** Which of a namespace's entries a list reads: `open` is every entry not settled. */
export type EntrySet = "all" | "open" | "settled";

export function inEntrySet(entry: OutboxEntry, set: EntrySet): boolean {
  return set === "all" || SETTLED_STATES.includes(entry.state) === (set === "settled");
}

/** What the person decided. Kept verbatim so a lost or stale answer can be shown and resent. */
export type Decision =
  | {
      readonly kind: "approve";
      readonly editedArgs?: Readonly<Record<string, unknown>>;
      /** Why, when the person said: sent where the schema declares `reason`, always kept. */
      readonly reason?: string;
    }
  | { readonly kind: "reject"; readonly reason?: string }
  | { readonly kind: "cancel" };

/** Where the delivery stream got to; persisted so a reload re-attaches instead of resending. */
export interface EntryCursor {
  readonly runId: string;
  /** The last SSE sequence number processed (0 before any frame). */
  readonly lastSeq: number;
  /** True once `RUN_STARTED` carried the claim acknowledgement. */
  readonly acked: boolean;
}

/** The last failure, kept for the app to show; never holds answer content. */
export interface EntryError {
  readonly kind: string;
  readonly code?: string;
  readonly message: string;
  readonly status?: number;
}

/** Persisted with the entry so a reload continues where the last page stopped. */
export interface DeliveryCounters {
  /** Retries caused by the server's own answers (5xx, 429, retryable codes): what the budget counts. */
  readonly serverFailures: number;
  /** Re-attaches in a row that brought no new event. */
  readonly reattachesWithoutProgress: number;
  /** Hydrations done to check the thread once the budget was spent, since the last resume. */
  readonly budgetChecks: number;
  /** When the first attempt went out (epoch ms), or null. */
  readonly firstSentAt: number | null;
  /** Network-failed status or thread reads in a row, each backed off (absent on older entries). */
  readonly failedReads?: number;
  /** Explicit "nothing ran" answers: evidence, never reset by a resume (absent on older entries). */
  readonly nothingRan?: number;
}

export const NO_COUNTERS: DeliveryCounters = {
  serverFailures: 0,
  reattachesWithoutProgress: 0,
  budgetChecks: 0,
  firstSentAt: null,
};

/** The other questions of the same run, answered and sent together. */
export interface EntryBatch {
  /** Every interrupt the run left open when this one was answered, sorted. */
  readonly interruptIds: readonly string[];
  /** Set once sealed on every answer but the sending one: the key of the entry whose request carries it. */
  readonly sendsWith?: string;
}

export interface OutboxEntry {
  /** The idempotency key; also the primary key in storage. */
  readonly key: string;
  /** The signed-in user (or any other isolation scope) the answer belongs to. */
  readonly namespace: string;
  readonly threadId: string;
  readonly interruptId: string;
  /** The tool call the interrupt guards, when it is a tool approval: its result proves the tool ran. */
  readonly toolCallId?: string;
  /** What the person was asked (message, proposed call, schema), so any tab or reload shows the same card. */
  readonly question?: EntryQuestion;
  /** The runId of the resume run; reused unchanged by every retry. */
  readonly runId: string;
  /** The exact body every retry sends; empty until buildable (kind known, run's questions answered). */
  readonly body: string;
  /** The interrupt's `responseSchema`, kept to shape the body when it is built after `answer()`. */
  readonly responseSchema?: unknown;
  /** Set when the run asked more than one question. */
  readonly batch?: EntryBatch;
  /** Absent on entries stored before counters existed: {@link NO_COUNTERS}. */
  readonly counters?: DeliveryCounters;
  readonly decision: Decision;
  readonly state: EntryState;
  /** How many times the request was sent. */
  readonly attempts: number;
  /** Epoch ms before which no new attempt may start (`retry_wait`), else null. */
  readonly nextAttemptAt: number | null;
  readonly cursor: EntryCursor;
  readonly lastError: EntryError | null;
  /** Human-readable explanation of the verdict, when there is one. */
  readonly verdictDetail: string | null;
  /** The `VERDICT_TABLE` row of the last verdict, for an inspector or a bug report; absent before one. */
  readonly rule?: string;
  /** Applied by replaying the server's record of an earlier delivery: nothing ran again. */
  readonly replayed?: boolean;
  /** For "answered elsewhere": the decisions the server recorded, to show instead of ours. */
  readonly recordedDecisions?: readonly RecordedDecision[];
  /** When this lost answer was posted as a message: never offered again (each may run the tool). */
  readonly resentAt?: number;
  /** Set once any attempt may have reached the server. Distinguishes "never pending" from "consumed". */
  readonly everSent: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Bumped by the store on every commit (absent counts as 0); orders copies of one entry across tabs. */
  readonly revision?: number;
  /** After this the server may have forgotten the key: reconcile by status or hydration. */
  readonly expiresAt: number;
}
