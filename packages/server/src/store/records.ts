import type { AgUiEvent, Interrupt } from "@agui-outbox/core/protocol";

/**
 * `PENDING → CLAIMED → EXECUTING → EXECUTED → RESOLVED`, side exits `REJECTED`,
 * `CANCELLED`, `EXPIRED`, `INDETERMINATE`.
 */
export const OccurrenceState = {
  pending: "PENDING",
  claimed: "CLAIMED",
  executing: "EXECUTING",
  executed: "EXECUTED",
  resolved: "RESOLVED",
  rejected: "REJECTED",
  cancelled: "CANCELLED",
  expired: "EXPIRED",
  indeterminate: "INDETERMINATE",
} as const;
export type OccurrenceState = (typeof OccurrenceState)[keyof typeof OccurrenceState];

/** The final states a committed run writes. */
export type FinalState =
  | typeof OccurrenceState.resolved
  | typeof OccurrenceState.rejected
  | typeof OccurrenceState.cancelled;

/** The answer a resume entry carried. */
export interface Decision {
  readonly status: "resolved" | "cancelled";
  readonly payload?: unknown;
}

export interface Claim {
  readonly runId: string;
  readonly key: string;
  /** Milliseconds since the epoch on the store's clock. */
  readonly leaseUntil: number;
}

/** What a tool returned, stored before its `TOOL_CALL_RESULT` is emitted. */
export interface StoredToolResult {
  readonly toolCallId: string;
  readonly messageId: string;
  readonly content: string;
  readonly args: Record<string, unknown>;
}

/** Written with the final state when the answering run finishes: what a duplicate replays. Keyed by idempotency key. */
export interface OutcomeRecord {
  readonly key: string;
  readonly runId: string;
  readonly threadId: string;
  readonly events: readonly AgUiEvent[];
  readonly at: number;
}

/** One approval occurrence: an interrupt of one thread, and everything its answer did. */
export interface Occurrence {
  readonly threadId: string;
  readonly interruptId: string;
  readonly toolCallId: string | null;
  readonly toolName: string | null;
  readonly args: Record<string, unknown>;
  readonly interrupt: Interrupt;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly state: OccurrenceState;
  readonly claim: Claim | null;
  /** The decision being applied, kept after a rollback once the tool ran (the result belongs to it). */
  readonly decision: Decision | null;
  readonly result: StoredToolResult | null;
  readonly outcome: OutcomeRecord | null;
  /** Bumped by every change: a claim is a conditional update on it. */
  readonly version: number;
}

export interface NewOccurrence {
  readonly threadId: string;
  readonly interruptId: string;
  readonly toolCallId: string | null;
  readonly toolName: string | null;
  readonly args: Record<string, unknown>;
  readonly interrupt: Interrupt;
  readonly expiresAt: number;
}

export interface IdempotencyRecord {
  readonly key: string;
  readonly bodyHash: string;
  readonly runId: string;
  readonly threadId: string;
  readonly createdAt: number;
}

/** A reservation's answer: the key's record, and whether this call created it. */
export interface ReservedKey extends IdempotencyRecord {
  readonly created: boolean;
}

export interface StoredFrame {
  readonly seq: number;
  readonly event: AgUiEvent;
}

export interface RunRecord {
  readonly runId: string;
  readonly threadId: string;
  readonly lastSeq: number;
  /** The latest attempt's terminal event, or null while it runs. */
  readonly terminal: AgUiEvent | null;
  /** The instance running the current attempt; its lease lets a dead instance's run be closed. */
  readonly owner: string | null;
  readonly leaseUntil: number;
  readonly updatedAt: number;
  /** Set once the log passed its retention window: frames are gone, re-attach gets 410. */
  readonly expired: boolean;
}

export interface OccurrenceRef {
  readonly threadId: string;
  readonly interruptId: string;
}

/** The whole batch of a resume, claimed at once or not at all. */
export interface ClaimRequest {
  readonly runId: string;
  readonly key: string;
  readonly leaseMs: number;
  readonly claims: readonly {
    readonly ref: OccurrenceRef;
    /** The version the verdict was decided on; another writer in between fails the batch. */
    readonly version: number;
    readonly decision: Decision;
  }[];
}

/** What a terminal event settles, in the same transaction as the event. */
export type Settlement =
  | {
      readonly kind: "commit";
      readonly key: string;
      /** The attempt's events (those after this seq, the terminal one included) become the outcome record. */
      readonly afterSeq: number;
      readonly finals: readonly {
        readonly ref: OccurrenceRef;
        readonly state: FinalState;
      }[];
    }
  | { readonly kind: "rollback" };

export interface RetentionWindows {
  readonly idempotencyWindowMs: number;
  readonly eventLogRetentionMs: number;
}

export interface SweepResult {
  /** Claims whose lease lapsed, released to PENDING or marked INDETERMINATE. */
  readonly claims: number;
  /** Runs whose owner stopped renewing, closed with a `RUN_ERROR`. */
  readonly runs: number;
}

export function isTerminalEvent(event: AgUiEvent): boolean {
  return event.type === "RUN_FINISHED" || event.type === "RUN_ERROR";
}

/** A batch may end with a terminal event, never carry one before its end (nothing could follow it). */
export function checkBatch(events: readonly AgUiEvent[]): void {
  const early = events.findIndex((event, index) => isTerminalEvent(event) && index < events.length - 1);
  if (early >= 0) {
    throw new RangeError(`a batch's terminal event must be its last; ${events[early]?.type} is at ${early}`);
  }
}
