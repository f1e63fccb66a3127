import type { AgUiEvent, Interrupt, Message } from "@agui-outbox/core/protocol";
import type { MemoryDocument } from "@agui-outbox/server";

/**
 * Everything the server must keep across a crash and restart: a plain JSON
 * document, so the file store can write it atomically in one piece. The
 * `fixed` mode's state is the contract library's memory-store document, kept
 * whole under `contract`; the rest is the mock's own (thread history, the
 * ledger, and the emulated servers' occurrences).
 */
export interface MockState {
  readonly version: 1;
  threads: Record<string, ThreadRecord>;
  /** The emulations' (`af-*`) approval occurrences, keyed by {@link occurrenceKey}. */
  occurrences: Record<string, Occurrence>;
  ledger: LedgerEntry[];
  /** The `fixed` mode's claims, outcomes, idempotency records, run logs and background runs. */
  contract?: MemoryDocument;
}

export function emptyState(): MockState {
  return { version: 1, threads: {}, occurrences: {}, ledger: [] };
}

/** Fields a state file written before the `fixed` mode ran on the library still has. */
const OBSOLETE_FIELDS = ["idempotency", "runs", "background", "backgroundTokens"] as const;

/**
 * Drops what an older state file kept for the mock's own contract engine: its
 * claims and logs do not carry over (the library's document starts empty), the
 * threads, ledger and emulations' occurrences do.
 */
export function upgradeState(state: MockState): MockState {
  const record = state as unknown as Record<string, unknown>;
  for (const field of OBSOLETE_FIELDS) delete record[field];
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

export interface LedgerEntry {
  readonly threadId: string;
  readonly toolCallId: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly at: string;
}
