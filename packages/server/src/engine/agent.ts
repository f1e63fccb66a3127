import type { IncomingMessage } from "node:http";
import type { AgUiEvent, RunAgentInput } from "@agui-outbox/core/protocol";
import type { Decision, Occurrence, StoredToolResult } from "../store/records";

/** How one answered interrupt was applied before the agent continues. */
export type AppliedAnswer =
  | {
      readonly kind: "executed";
      readonly interruptId: string;
      readonly decision: Decision;
      readonly result: StoredToolResult;
      /** True when the result was stored by an earlier attempt and reused, not run again. */
      readonly reused: boolean;
    }
  | { readonly kind: "rejected"; readonly interruptId: string; readonly decision: Decision }
  | { readonly kind: "cancelled"; readonly interruptId: string; readonly decision: Decision }
  /** An interrupt with no wrapped tool: the agent reads the decision itself. */
  | { readonly kind: "answered"; readonly interruptId: string; readonly decision: Decision };

export interface AgentTurn {
  /**
   * The request. For a resume its `messages` already end with the tool results
   * of the approved calls, as the model should see them.
   */
  readonly input: RunAgentInput;
  /** For a resume: what each answered interrupt led to; empty for a user turn. */
  readonly answers: readonly AppliedAnswer[];
  /** Aborted when the instance shuts down or loses the run's lease: stop producing events. */
  readonly signal: AbortSignal;
  /** The caller's identity, as the app's `identify` returned it; undefined without `identify`. Scope your own data by it. */
  readonly identity: string | undefined;
  /** The HTTP request that started this turn (its headers carry the caller's credentials); none outside one. */
  readonly request?: IncomingMessage | undefined;
}

/**
 * The team's agent: yields the AG-UI events of one run. `RUN_STARTED` is
 * emitted by the library (with its claim ack) and dropped here; the run ends
 * with the agent's `RUN_FINISHED` (commit) or `RUN_ERROR` (rollback). A
 * `RUN_FINISHED` with an `interrupt` outcome opens those interrupts; a tool
 * call an interrupt names (`toolCallId`) runs through the wrapped tool of that
 * name once the person approves it.
 */
export type AgentHandler = (turn: AgentTurn) => AsyncIterable<AgUiEvent> | Iterable<AgUiEvent>;

export interface ToolContext {
  readonly threadId: string;
  /** The caller's identity, as the app's `identify` returned it; undefined without `identify`. Scope your own data by it. */
  readonly identity: string | undefined;

  readonly interruptId: string;
  readonly toolCallId: string;
  /**
   * Stable for this occurrence across attempts and replicas: hand it to an
   * outside service so its own idempotency covers the INDETERMINATE case.
   */
  readonly idempotencyKey: string;
  readonly signal: AbortSignal;
}

/** A tool the library runs at most once per occurrence; its result is stored before it is emitted. */
export interface ToolDefinition {
  /** Published in capabilities. @default the tool's name */
  readonly description?: string;
  /** JSON Schema of the arguments, published in capabilities. */
  readonly parameters?: Record<string, unknown>;
  /** The tool's effect. A string is sent as the result content as is; anything else as JSON. */
  execute(args: Record<string, unknown>, context: ToolContext): unknown;
}

export type Approval =
  | { readonly approved: true; readonly args: Record<string, unknown> }
  | { readonly approved: false };

/** Reads a decision's payload: approved or not, and with which (possibly edited) arguments. */
export type ApprovalReader = (occurrence: Occurrence, decision: Decision) => Approval;

/**
 * The payload shapes AG-UI servers commonly accept: `{approved}` or
 * `{accepted}`, with edits as `editedArgs`.
 */
export const readApproval: ApprovalReader = (occurrence, decision) => {
  if (decision.status !== "resolved") return { approved: false };
  const payload = (decision.payload ?? {}) as Record<string, unknown>;
  if (payload.approved !== true && payload.accepted !== true) return { approved: false };
  const edited = payload.editedArgs;
  const edits = typeof edited === "object" && edited !== null && !Array.isArray(edited) ? edited : {};
  return { approved: true, args: { ...occurrence.args, ...(edits as Record<string, unknown>) } };
};
