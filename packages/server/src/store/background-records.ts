import type { BackgroundStatus, Interrupt, RunAgentInput } from "@agui-outbox/core/protocol";
import type { StoredFrame, StoredToolResult } from "./records";

/**
 * `REQUESTED → EXECUTING → EXECUTED`, or `INDETERMINATE` when the poll running
 * it died (or the body threw) before its result was stored. A call the model
 * asked the person about is `ASKED` until its answer is applied (by a resume,
 * which runs an approved tool), then `EXECUTED` with what the answer led to.
 */
export const BackgroundCallState = {
  requested: "REQUESTED",
  asked: "ASKED",
  executing: "EXECUTING",
  executed: "EXECUTED",
  indeterminate: "INDETERMINATE",
} as const;
export type BackgroundCallState = (typeof BackgroundCallState)[keyof typeof BackgroundCallState];

/** One tool call a background step's model response asked for. */
export interface BackgroundCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly args: Record<string, unknown>;
  readonly state: BackgroundCallState;
  /** Stored before anything is submitted: a re-poll resubmits it instead of running the tool again. */
  readonly result: StoredToolResult | null;
  /** The question this call waits on (`ASKED`), as it was opened; absent for a call run without one. */
  readonly interrupt?: Interrupt;
}

/** The poll running a step now; its lease (on the store's clock) lets a dead poll's step be taken over. */
export interface BackgroundPoll {
  readonly pollId: string;
  readonly leaseUntil: number;
}

/**
 * A background run, kept whole: every poll reads it, decides, and writes it
 * back only if no other poll wrote in between (`version`).
 */
export interface BackgroundRunRecord {
  readonly runId: string;
  readonly threadId: string;
  readonly status: BackgroundStatus;
  /** How many steps were submitted; the model's next response is step `step`. */
  readonly step: number;
  /** The token to poll with now; null once the run completed or failed. */
  readonly token: string | null;
  /** The token whose poll ended the run: repeating that poll repeats its answer. */
  readonly finalToken: string | null;
  /** Every token handed out, with the seq its poll's answer starts after. */
  readonly tokens: Readonly<Record<string, number>>;
  /** The model's input for the current step: the request, then each submitted step's messages. */
  readonly input: RunAgentInput;
  /** The current step's tool calls once its model response was stored; null before. */
  readonly calls: readonly BackgroundCall[] | null;
  /** The run's event log, each event with its `x-stream` cursor. */
  readonly frames: readonly StoredFrame[];
  readonly poll: BackgroundPoll | null;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly updatedAt: number;
  /** Bumped by every write: a write names the version it read. */
  readonly version: number;
}

/** A new run as the start writes it (version 1). */
export type NewBackgroundRun = Omit<BackgroundRunRecord, "version" | "updatedAt">;

export function lastSeqOf(record: Pick<BackgroundRunRecord, "frames">): number {
  return record.frames.at(-1)?.seq ?? 0;
}

export function isBackgroundEnded(record: Pick<BackgroundRunRecord, "status">): boolean {
  return record.status === "completed" || record.status === "failed";
}
