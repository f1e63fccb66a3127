import { type AgUiEvent, type Interrupt, OutcomeCode } from "@agui-outbox/core/protocol";
import type { NewOccurrence, Settlement } from "../store/records";
import type { AgentTurn } from "./agent";
import type { ResolvedServerOptions } from "./options";
import { LeaseLost, type RunAttempt } from "./run-attempt";
import { contractFailure, runError } from "./run-error";
import { parseArgs, type StreamedToolCall, trackToolCall } from "./tool-calls";

/**
 * Runs the agent to its terminal event. `commit` settles a resume's claims
 * with its `RUN_FINISHED`; any other ending rolls them back. The terminal
 * event is awaited, so a failed write of any event before it ends the run in
 * `RUN_ERROR` rather than a success with a gap.
 */
export async function pumpAgent(
  options: ResolvedServerOptions,
  attempt: RunAttempt,
  turn: AgentTurn,
  commit: Settlement | undefined,
): Promise<void> {
  const rollback: Settlement | undefined = commit === undefined ? undefined : { kind: "rollback" };
  const calls = new Map<string, StreamedToolCall>();
  try {
    for await (const event of options.agent(turn)) {
      if (attempt.ended) return;
      if (event.type === "RUN_STARTED") continue;
      trackToolCall(calls, event);
      if (event.type === "RUN_FINISHED") {
        await attempt.emit(await openInterrupts(options, attempt, event, calls), commit);
        return;
      }
      if (event.type === "RUN_ERROR") {
        await attempt.emit(event, rollback);
        return;
      }
      // Not awaited one by one: the attempt writes what arrives during a write in the next one.
      await attempt.push(event);
    }
    await attempt.emit(
      runError(OutcomeCode.UNAVAILABLE, "the agent ended without RUN_FINISHED; retry later"),
      rollback,
    );
  } catch (error) {
    if (error instanceof LeaseLost || attempt.ended) return;
    const { code, message } = contractFailure(error, "the agent failed; retry with the same Idempotency-Key");
    // Reporting the failure to a reader already gone changes nothing: the claim is rolled back.
    await attempt.emit(runError(code, message), rollback).catch(() => {});
  }
}

/** A `RUN_FINISHED` with interrupts opens them (each with an expiry) before it is written. */
async function openInterrupts(
  options: ResolvedServerOptions,
  attempt: RunAttempt,
  event: AgUiEvent,
  calls: ReadonlyMap<string, StreamedToolCall>,
): Promise<AgUiEvent> {
  const outcome = (event as { outcome?: { type?: string; interrupts?: Interrupt[] } }).outcome;
  if (outcome?.type !== "interrupt" || outcome.interrupts === undefined) return event;
  const now = await options.store.now();
  const interrupts = outcome.interrupts.map((interrupt) => ({
    ...interrupt,
    expiresAt: interrupt.expiresAt ?? new Date(now + options.interruptTtlMs).toISOString(),
  }));
  const opened: NewOccurrence[] = interrupts.map((interrupt) => {
    const call = interrupt.toolCallId === undefined ? undefined : calls.get(interrupt.toolCallId);
    return {
      threadId: attempt.threadId,
      interruptId: interrupt.id,
      toolCallId: interrupt.toolCallId ?? null,
      toolName: call?.name ?? null,
      args: parseArgs(call?.args),
      interrupt,
      expiresAt: Date.parse(interrupt.expiresAt),
    };
  });
  if (attempt.ended) throw new LeaseLost(attempt.runId);
  await options.store.openOccurrences(opened);
  return { ...event, outcome: { ...outcome, interrupts } } as AgUiEvent;
}
