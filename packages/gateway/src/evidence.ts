import { type AgUiEvent, OutcomeCode } from "@agui-outbox/core/protocol";
import type {
  AgentTurn,
  ApprovalReader,
  ContractStore,
  Occurrence,
  StoredToolResult,
} from "@agui-outbox/server";
import { GatewayError, GatewayErrorKind } from "./gateway-error";

/** Upstream codes that state the approved tool was not run (DESIGN.md, "Evidence decides verdicts"). */
const NOTHING_RAN: ReadonlySet<string> = new Set([OutcomeCode.TOOL_UNAVAILABLE]);

/** An approved occurrence of the resume being forwarded, with the arguments it was approved with. */
export interface ApprovedCall {
  readonly occurrence: Occurrence;
  readonly args: Record<string, unknown>;
}

/**
 * The approvals a resume carries, as claimed in the store. Only these can run
 * a tool upstream; a rejection or cancellation runs nothing, so it needs no
 * evidence and may simply be forwarded again.
 */
export async function approvedCalls(
  store: ContractStore,
  turn: AgentTurn,
  readApproval: ApprovalReader,
): Promise<ApprovedCall[]> {
  if (turn.answers.length === 0) return [];
  const occurrences = await store.threadOccurrences(turn.input.threadId);
  const approved: ApprovedCall[] = [];
  for (const answer of turn.answers) {
    const occurrence = occurrences.find(
      (candidate) =>
        candidate.interruptId === answer.interruptId && candidate.claim?.runId === turn.input.runId,
    );
    if (occurrence === undefined) continue;
    const approval = readApproval(occurrence, answer.decision);
    if (approval.approved) approved.push({ occurrence, args: approval.args });
  }
  return approved;
}

/**
 * What the upstream's stream proves about each approved call, written to the
 * store before the event that proves it is forwarded:
 *
 *   claimed ──upstream began──▶ EXECUTING ──its TOOL_CALL_RESULT──▶ EXECUTED (result stored)
 *
 * The server library's rollback then settles an attempt that failed: nothing
 * began, or the upstream said nothing ran → PENDING (forward again); began, no
 * result → INDETERMINATE (it may have run); result stored → PENDING with the
 * result (answer from the record).
 */
export class CallEvidence {
  readonly #store: ContractStore;
  readonly #runId: string;
  readonly #leaseMs: number;
  readonly #waiting: Map<string, ApprovedCall>;
  readonly #calls: readonly ApprovedCall[];
  #began = false;

  constructor(store: ContractStore, runId: string, leaseMs: number, calls: readonly ApprovedCall[]) {
    this.#store = store;
    this.#runId = runId;
    this.#leaseMs = leaseMs;
    this.#calls = calls;
    this.#waiting = new Map(
      calls.flatMap((call) =>
        call.occurrence.toolCallId === null ? [] : [[call.occurrence.toolCallId, call] as const],
      ),
    );
  }

  /** The upstream answered with its first event: from here on it may run the tools. */
  async began(): Promise<void> {
    if (this.#began) return;
    this.#began = true;
    for (const { occurrence } of this.#calls) {
      if (!(await this.#store.beginExecution(occurrence, this.#runId, this.#leaseMs))) this.#lost();
    }
  }

  /** Stores the result an event proves, if it is one of the approved calls'; takes back the start an upstream denies. */
  async observe(event: AgUiEvent): Promise<void> {
    if (event.type === "RUN_ERROR") return this.#nothingRan(event);
    if (event.type !== "TOOL_CALL_RESULT") return;
    const { toolCallId, messageId, content } = event as {
      toolCallId: string;
      messageId: string;
      content: string;
    };
    const call = this.#waiting.get(toolCallId);
    if (call === undefined) return;
    this.#waiting.delete(toolCallId);
    const result: StoredToolResult = { toolCallId, messageId, content, args: call.args };
    if (!(await this.#store.storeResult(call.occurrence, this.#runId, result, this.#leaseMs))) this.#lost();
  }

  /**
   * An upstream that says its tool never ran, after it began (Agent Framework's
   * `RUN_STARTED`, then `APPROVAL_TOOL_UNAVAILABLE`): the calls without a result
   * go back to claimed, so the rollback leaves them pending, not INDETERMINATE.
   */
  async #nothingRan(event: AgUiEvent): Promise<void> {
    if (!this.#began || !NOTHING_RAN.has(String((event as { code?: unknown }).code))) return;
    for (const { occurrence } of this.#waiting.values()) {
      await this.#store.undoExecution(occurrence, this.#runId);
    }
  }

  #lost(): never {
    throw new GatewayError(
      GatewayErrorKind.claimLost,
      `this gateway no longer holds the claims of ${this.#runId}`,
    );
  }
}
