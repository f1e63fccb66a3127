import { type AgUiEvent, type Interrupt, MetadataKey } from "@agui-outbox/core/protocol";
import {
  type BackgroundCall,
  BackgroundCallState,
  type BackgroundRunRecord,
  lastSeqOf,
} from "../store/background-records";
import type { ContractStore } from "../store/contract-store";
import { type Occurrence, OccurrenceState, type StoredToolResult } from "../store/records";
import { appendFrames } from "./background-steps";

/*
 * A background step whose model response ends with an interrupt outcome asks
 * the person before the calls it names run. Each question is an ordinary
 * occurrence, answered by an ordinary resume (key, claim, execute once, verdict);
 * the run only reads what the answers led to, on the first poll after all are settled.
 */

/** `interrupt.metadata["x-background"]`: the background run a question belongs to. */
export interface BackgroundQuestionMark {
  readonly runId: string;
}

/** The interrupts a `RUN_FINISHED` opens (none for any other outcome). */
export function interruptsOf(event: AgUiEvent): readonly Interrupt[] {
  const outcome = (event as { outcome?: { type?: string; interrupts?: Interrupt[] } }).outcome;
  return outcome?.type === "interrupt" ? (outcome.interrupts ?? []) : [];
}

/** The background run a question belongs to, if it is one's. */
export function backgroundRunOf(occurrence: Pick<Occurrence, "interrupt">): string | undefined {
  const mark = occurrence.interrupt.metadata?.[MetadataKey.background] as { runId?: unknown } | undefined;
  return typeof mark?.runId === "string" ? mark.runId : undefined;
}

/**
 * The calls the interrupts name become `ASKED`, each with its question stamped
 * (an expiry, the run it belongs to). Undefined when an interrupt names no call
 * of the response: nothing could take its answer.
 */
export function askCalls(
  calls: readonly BackgroundCall[],
  interrupts: readonly Interrupt[],
  runId: string,
  defaultExpiresAt: string,
): BackgroundCall[] | undefined {
  const named = new Set(calls.map((call) => call.toolCallId));
  if (interrupts.some((interrupt) => !named.has(interrupt.toolCallId ?? ""))) return undefined;
  return calls.map((call) => {
    const interrupt = interrupts.find((candidate) => candidate.toolCallId === call.toolCallId);
    if (interrupt === undefined) return call;
    const mark: BackgroundQuestionMark = { runId };
    return {
      ...call,
      state: BackgroundCallState.asked,
      interrupt: {
        ...interrupt,
        expiresAt: interrupt.expiresAt ?? defaultExpiresAt,
        metadata: { ...interrupt.metadata, [MetadataKey.background]: mark },
      },
    };
  });
}

export function questionsOf(run: Pick<BackgroundRunRecord, "calls">): Interrupt[] {
  return (run.calls ?? []).flatMap((call) =>
    call.state === BackgroundCallState.asked && call.interrupt !== undefined ? [call.interrupt] : [],
  );
}

/** Ends the step's AG-UI run with its questions; polls with `token` start after them. */
export function pause(run: BackgroundRunRecord, token: string): BackgroundRunRecord {
  const asking = {
    type: "RUN_FINISHED",
    threadId: run.threadId,
    runId: run.runId,
    outcome: { type: "interrupt", interrupts: questionsOf(run) },
  } as AgUiEvent;
  const paused = { ...run, status: "interrupted" as const, frames: appendFrames(run, [asking]), poll: null };
  return { ...paused, token, tokens: { ...run.tokens, [token]: lastSeqOf(paused) } };
}

/** Opens the run's questions; one already there (open or settled) is left alone, so this may repeat. */
export async function openQuestions(store: ContractStore, run: BackgroundRunRecord): Promise<void> {
  const asked = (run.calls ?? []).filter((call) => call.state === BackgroundCallState.asked);
  await store.openOccurrences(
    asked.flatMap((call) =>
      call.interrupt === undefined
        ? []
        : [
            {
              threadId: run.threadId,
              interruptId: call.interrupt.id,
              toolCallId: call.toolCallId,
              toolName: call.toolName,
              args: call.args,
              interrupt: call.interrupt,
              expiresAt: Date.parse(call.interrupt.expiresAt ?? ""),
            },
          ],
    ),
  );
}

export type Answers =
  /** Some question is still open, or its answer is being applied. */
  | { readonly kind: "waiting" }
  /** Every question settled: the calls with what each answer led to, as results to submit. */
  | { readonly kind: "answered"; readonly calls: BackgroundCall[] }
  /** The approved tool was cut off with no result: it may or may not have run. */
  | { readonly kind: "indeterminate"; readonly index: number };

/**
 * What the answers led to. An approved call ran in its resume, which stored the
 * result; a call that did not run is submitted as a tool message saying why
 * (`{"ran":false,"answer":"rejected"|"cancelled"|"expired"}`), so the model hears of it.
 */
export function readAnswers(
  run: Pick<BackgroundRunRecord, "calls">,
  occurrences: readonly Occurrence[],
  now: number,
  randomUUID: () => string,
): Answers {
  const calls = [...(run.calls ?? [])];
  for (const [index, call] of calls.entries()) {
    if (call.state !== BackgroundCallState.asked) continue;
    const found = occurrences.find((occurrence) => occurrence.interruptId === call.interrupt?.id);
    const settled = found === undefined ? undefined : settledAs(found, now);
    if (settled === undefined) return { kind: "waiting" };
    if (settled === OccurrenceState.indeterminate) return { kind: "indeterminate", index };
    const result: StoredToolResult =
      settled === OccurrenceState.resolved && found?.result
        ? found.result
        : {
            toolCallId: call.toolCallId,
            messageId: randomUUID(),
            content: JSON.stringify(notRun(settled, found)),
            args: call.args,
          };
    calls[index] = { ...call, state: BackgroundCallState.executed, result };
  }
  return { kind: "answered", calls };
}

type Settled =
  | typeof OccurrenceState.resolved
  | typeof OccurrenceState.rejected
  | typeof OccurrenceState.cancelled
  | typeof OccurrenceState.expired
  | typeof OccurrenceState.indeterminate;

function settledAs(occurrence: Occurrence, now: number): Settled | undefined {
  switch (occurrence.state) {
    case OccurrenceState.resolved:
    case OccurrenceState.rejected:
    case OccurrenceState.cancelled:
    case OccurrenceState.expired:
    case OccurrenceState.indeterminate:
      return occurrence.state;
    case OccurrenceState.pending:
      return occurrence.expiresAt <= now ? OccurrenceState.expired : undefined;
    default:
      return undefined;
  }
}

function notRun(settled: Settled, occurrence: Occurrence | undefined): Record<string, unknown> {
  if (settled === OccurrenceState.resolved) {
    // No wrapped tool took it: the model reads the answer itself.
    return { ran: false, answer: "resolved", payload: occurrence?.decision?.payload ?? null };
  }
  return { ran: false, answer: settled.toLowerCase() };
}
