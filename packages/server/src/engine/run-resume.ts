import { type AgUiEvent, type Message, OutcomeCode, type RunAgentInput } from "@agui-outbox/core/protocol";
import type { ContractStore } from "../store/contract-store";
import { type FinalState, type Occurrence, OccurrenceState, type StoredToolResult } from "../store/records";
import type { AppliedAnswer } from "./agent";
import { identityPrefix } from "./ids";
import type { ResolvedServerOptions } from "./options";
import type { ClaimedAnswer } from "./resume-verdict";
import { LeaseLost, type RunAttempt, RunFailure } from "./run-attempt";

export interface ResumeRun {
  readonly attempt: RunAttempt;
  readonly input: RunAgentInput;
  readonly key: string;
  readonly claims: readonly ClaimedAnswer[];
  readonly options: ResolvedServerOptions;
  readonly store: ContractStore;
}

export interface AppliedResume {
  /** The request with the tool results appended, for the agent's next model turn. */
  readonly input: RunAgentInput;
  readonly answers: readonly AppliedAnswer[];
  readonly finals: readonly { readonly ref: Occurrence; readonly state: FinalState }[];
}

/**
 * Applies a claimed batch: each approved tool runs once (or its stored result
 * is reused) and its result is stored before its `TOOL_CALL_RESULT`. Returns
 * undefined when the run already ended (a failure rolled it back, or the lease
 * was lost).
 */
export async function runResume(run: ResumeRun): Promise<AppliedResume | undefined> {
  const { attempt, claims, options } = run;
  const answers: AppliedAnswer[] = [];
  const finals: { ref: Occurrence; state: FinalState }[] = [];
  const toolMessages: Message[] = [];
  try {
    for (const { occurrence, decision } of claims) {
      const interruptId = occurrence.interruptId;
      if (decision.status === "cancelled") {
        answers.push({ kind: "cancelled", interruptId, decision });
        finals.push({ ref: occurrence, state: OccurrenceState.cancelled });
        continue;
      }
      const tool = occurrence.toolName === null ? undefined : options.tools[occurrence.toolName];
      if (tool === undefined || occurrence.toolCallId === null) {
        answers.push({ kind: "answered", interruptId, decision });
        finals.push({ ref: occurrence, state: OccurrenceState.resolved });
        continue;
      }
      const approval = options.readApproval(occurrence, decision);
      if (!approval.approved) {
        answers.push({ kind: "rejected", interruptId, decision });
        finals.push({ ref: occurrence, state: OccurrenceState.rejected });
        continue;
      }
      const reused = occurrence.result !== null;
      const result =
        occurrence.result ?? (await executeOnce(run, occurrence, occurrence.toolCallId, approval.args));
      await attempt.emit({
        type: "TOOL_CALL_RESULT",
        messageId: result.messageId,
        toolCallId: result.toolCallId,
        content: result.content,
        role: "tool",
      } as AgUiEvent);
      toolMessages.push({
        id: result.messageId,
        role: "tool",
        toolCallId: result.toolCallId,
        content: result.content,
      } as Message);
      answers.push({ kind: "executed", interruptId, decision, result, reused });
      finals.push({ ref: occurrence, state: OccurrenceState.resolved });
    }
  } catch (error) {
    if (error instanceof LeaseLost || attempt.ended) return undefined;
    const failure =
      error instanceof RunFailure
        ? error
        : new RunFailure(OutcomeCode.UNAVAILABLE, "the server failed applying the answer; retry later");
    await attempt
      .emit({ type: "RUN_ERROR", code: failure.code, message: failure.message } as AgUiEvent, {
        kind: "rollback",
      })
      // The rollback is written before the report; a reader gone misses nothing it can use.
      .catch(() => {});
    return undefined;
  }
  return {
    input: { ...run.input, messages: [...run.input.messages, ...toolMessages] },
    answers,
    finals,
  };
}

/**
 * The tool body runs only after this run moved the occurrence to EXECUTING,
 * which only the claim's holder can do once; its result is stored before
 * anything else sees it. A body that throws leaves EXECUTING with no result:
 * the rollback makes it INDETERMINATE, never run again.
 */
async function executeOnce(
  run: ResumeRun,
  occurrence: Occurrence,
  toolCallId: string,
  args: Record<string, unknown>,
): Promise<StoredToolResult> {
  const { attempt, options, store } = run;
  const tool = options.tools[occurrence.toolName ?? ""];
  if (tool === undefined)
    throw new RunFailure(OutcomeCode.TOOL_UNAVAILABLE, "the approved tool is not registered");
  if (attempt.ended || !(await store.beginExecution(occurrence, attempt.runId, options.claimLeaseMs))) {
    throw new LeaseLost(attempt.runId);
  }
  let value: unknown;
  try {
    value = await tool.execute(args, {
      threadId: occurrence.threadId,
      interruptId: occurrence.interruptId,
      toolCallId,
      identity: attempt.identity,
      // Two identities may use the same ids: an outside service must never take one's call for the other's.
      idempotencyKey: `${identityPrefix(attempt.identity)}${occurrence.threadId}:${occurrence.interruptId}`,
      signal: attempt.signal,
    });
  } catch {
    throw new RunFailure(
      OutcomeCode.INDETERMINATE,
      "the tool failed mid-run; whether it took effect is unknown, so it is not run again",
    );
  }
  const result: StoredToolResult = {
    toolCallId,
    messageId: options.randomUUID(),
    content: typeof value === "string" ? value : JSON.stringify(value ?? null),
    args,
  };
  // A stopped attempt (lease lost, or the instance abandoned) writes nothing more.
  if (attempt.ended || !(await store.storeResult(occurrence, attempt.runId, result, options.claimLeaseMs))) {
    throw new LeaseLost(attempt.runId);
  }
  return result;
}
