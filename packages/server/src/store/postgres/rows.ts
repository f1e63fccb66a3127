import type { AgUiEvent, Interrupt } from "@agui-outbox/core/protocol";
import {
  type Decision,
  type Occurrence,
  OccurrenceState,
  type RunRecord,
  type StoredToolResult,
} from "../records";

/** `bigint` columns arrive as strings from `pg`; every time here is ms since the epoch. */
function ms(value: string | number): number {
  return Number(value);
}

export interface OccurrenceRow {
  thread_id: string;
  interrupt_id: string;
  tool_call_id: string | null;
  tool_name: string | null;
  args: Record<string, unknown>;
  interrupt: Interrupt;
  created_at: string;
  expires_at: string;
  state: OccurrenceState;
  claim_run_id: string | null;
  claim_key: string | null;
  lease_until: string | null;
  decision: Decision | null;
  result: StoredToolResult | null;
  version: number;
  oc_key: string | null;
  oc_run_id: string | null;
  oc_thread_id: string | null;
  oc_events: AgUiEvent[] | null;
  oc_at: string | null;
}

export function occurrenceFromRow(row: OccurrenceRow): Occurrence {
  return {
    threadId: row.thread_id,
    interruptId: row.interrupt_id,
    toolCallId: row.tool_call_id,
    toolName: row.tool_name,
    args: row.args,
    interrupt: row.interrupt,
    createdAt: ms(row.created_at),
    expiresAt: ms(row.expires_at),
    state: row.state,
    claim:
      row.claim_run_id === null || row.claim_key === null || row.lease_until === null
        ? null
        : { runId: row.claim_run_id, key: row.claim_key, leaseUntil: ms(row.lease_until) },
    decision: row.decision,
    result: row.result,
    outcome:
      row.oc_key === null
        ? null
        : {
            key: row.oc_key,
            runId: row.oc_run_id ?? "",
            threadId: row.oc_thread_id ?? row.thread_id,
            events: row.oc_events ?? [],
            at: ms(row.oc_at ?? 0),
          },
    version: row.version,
  };
}

export interface RunRow {
  run_id: string;
  thread_id: string;
  last_seq: number;
  terminal: AgUiEvent | null;
  owner: string | null;
  lease_until: string;
  updated_at: string;
  expired: boolean;
}

export function runFromRow(row: RunRow): RunRecord {
  return {
    runId: row.run_id,
    threadId: row.thread_id,
    lastSeq: row.last_seq,
    terminal: row.terminal,
    owner: row.owner,
    leaseUntil: ms(row.lease_until),
    updatedAt: ms(row.updated_at),
    expired: row.expired,
  };
}

/** What a released claim becomes; the same rule as `releasedState`, in SQL. */
export const RELEASE_SET = `
  state = CASE
    WHEN state = '${OccurrenceState.indeterminate}' THEN state
    WHEN state = '${OccurrenceState.executing}' AND result IS NULL THEN '${OccurrenceState.indeterminate}'
    ELSE '${OccurrenceState.pending}' END,
  decision = CASE
    WHEN state = '${OccurrenceState.indeterminate}' OR result IS NOT NULL
      OR (state = '${OccurrenceState.executing}' AND result IS NULL) THEN decision
    ELSE NULL END,
  claim_run_id = NULL, claim_key = NULL, lease_until = NULL, version = version + 1`;
