import type { AgUiEvent, Interrupt, Message } from "@agui-outbox/core/protocol";
import type { MemoryDocument } from "@agui-outbox/server";

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
  /** Background runs, keyed by runId. */
  background: Record<string, BackgroundRun>;
  /** Every continuation token ever handed out, so a stale one is told apart from an unknown one. */
  backgroundTokens: Record<string, BackgroundToken>;
  /** The `fixed` mode's claims, outcomes and run logs: the contract library's store document. */
  contract?: MemoryDocument;
}

export function emptyState(): MockState {
  return {
    version: 1,
    threads: {},
    occurrences: {},
    idempotency: {},
    runs: {},
    ledger: [],
    background: {},
    backgroundTokens: {},
  };
}

/** Fills fields added after a state file was written. */
export function upgradeState(state: MockState): MockState {
  state.background ??= {};
  state.backgroundTokens ??= {};
  return state;
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

/**
 * `REQUESTED → EXECUTING → COMPLETED (result stored) → DELIVERING → DELIVERED`,
 * side exit `INDETERMINATE` (executing, no result, its poll gone).
 */
export const CallState = {
  requested: "REQUESTED",
  executing: "EXECUTING",
  completed: "COMPLETED",
  delivering: "DELIVERING",
  delivered: "DELIVERED",
  indeterminate: "INDETERMINATE",
} as const;
export type CallState = (typeof CallState)[keyof typeof CallState];

/** One tool call of a background run; identity is (responseId, callId, position), never callId alone. */
export interface BackgroundCall {
  readonly responseId: string;
  readonly callId: string;
  readonly position: number;
  readonly name: string;
  readonly args: Record<string, unknown>;
  state: CallState;
  result: { readonly messageId: string; readonly content: string } | null;
}

export interface BackgroundRun {
  readonly runId: string;
  readonly threadId: string;
  status: "queued" | "in_progress" | "completed" | "failed";
  /** 0: the model turn that requests tool calls; 1: the final model turn; 2: done. */
  step: number;
  /** The current continuation token; null once the run is done. */
  token: string | null;
  /** The token whose poll finished the run: re-polling it returns the final answer again. */
  finalToken: string | null;
  /** What the user asked, for the scripted model turns. */
  readonly request: string;
  calls: BackgroundCall[];
  /** The poll advancing the run right now; its lease lets a dead instance's poll lapse. */
  poll: { readonly pollId: string; leaseUntil: number } | null;
  error: { readonly code: string; readonly message: string } | null;
}

export interface BackgroundToken {
  readonly runId: string;
  /** Events after this seq answer the poll made with this token. */
  readonly afterSeq: number;
}
