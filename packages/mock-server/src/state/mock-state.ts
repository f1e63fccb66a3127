import type { AgUiEvent, Interrupt, Message } from "@agui-outbox/core/protocol";

/**
 * Everything the server must keep across a crash and restart: a plain JSON
 * document, so the file store can write it atomically in one piece.
 */
export interface MockState {
  readonly version: 1;
  threads: Record<string, ThreadRecord>;
  /** Keyed by {@link occurrenceKey}. */
  occurrences: Record<string, Occurrence>;
  /** Keyed by the `Idempotency-Key` header value. */
  idempotency: Record<string, IdempotencyRecord>;
  runs: Record<string, RunRecord>;
  ledger: LedgerEntry[];
}

export function emptyState(): MockState {
  return { version: 1, threads: {}, occurrences: {}, idempotency: {}, runs: {}, ledger: [] };
}

export interface ThreadRecord {
  readonly threadId: string;
  messages: Message[];
  readonly createdAt: number;
}

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

/** The answer a resume entry carried. */
export interface Decision {
  readonly status: "resolved" | "cancelled";
  readonly payload: unknown;
}

export interface Claim {
  readonly runId: string;
  readonly key: string;
  leaseUntil: number;
}

export interface StoredToolResult {
  readonly toolCallId: string;
  readonly messageId: string;
  readonly content: string;
  readonly args: Record<string, unknown>;
}

/** Written when the run that answered an occurrence finishes: what a duplicate replays. */
export interface OutcomeRecord {
  readonly decision: Decision;
  readonly args: Record<string, unknown> | null;
  readonly key: string;
  readonly runId: string;
  readonly results: readonly StoredToolResult[];
  readonly events: readonly AgUiEvent[];
  readonly at: number;
}

export interface Occurrence {
  readonly threadId: string;
  readonly interruptId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly args: Record<string, unknown>;
  readonly interrupt: Interrupt;
  readonly createdAt: number;
  readonly expiresAt: number;
  state: OccurrenceState;
  claim: Claim | null;
  /**
   * The decision of the current claim, kept after a rollback once the tool ran:
   * the stored result belongs to it, so a different decision can no longer apply.
   */
  decision: Decision | null;
  result: StoredToolResult | null;
  outcome: OutcomeRecord | null;
}

export function occurrenceKey(threadId: string, interruptId: string): string {
  return JSON.stringify([threadId, interruptId]);
}

export interface IdempotencyRecord {
  readonly key: string;
  readonly bodyHash: string;
  readonly runId: string;
  readonly threadId: string;
  readonly createdAt: number;
}

export interface StoredFrame {
  readonly seq: number;
  readonly event: AgUiEvent;
}

export interface RunRecord {
  readonly runId: string;
  readonly threadId: string;
  frames: StoredFrame[];
  lastSeq: number;
  /** The latest attempt's terminal event, or null while it runs. */
  terminal: AgUiEvent | null;
  readonly createdAt: number;
  updatedAt: number;
  /** Set once the log passed its retention window: frames are gone, re-attach gets 410. */
  expired: boolean;
  continuationToken: string | null;
}

export interface LedgerEntry {
  readonly threadId: string;
  readonly toolCallId: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly at: string;
}
