import { type AgUiEvent, OutcomeCode, type RunAgentInput } from "@agui-outbox/core/protocol";

/** The exception names Agent Framework puts in `RUN_ERROR.code` for these failures. */
export const ExceptionCode = {
  modelCall: "ServiceResponseException",
  tool: "ToolExecutionException",
} as const;

/** The client went away (legacy aborts the run) or the instance died: stop quietly. */
export class Aborted extends Error {}

/** A `mid-tool` fail fault: the tool was cut off after its side effect, with no result. */
export class ToolCutOff extends Error {}

/**
 * `RUN_STARTED` on a resume. Written even when the client has already gone: the
 * server notices a disconnect only at a later write, so the tool still runs.
 */
export function emitStarted(emit: (event: AgUiEvent) => void, input: RunAgentInput): void {
  try {
    emit({ type: "RUN_STARTED", threadId: input.threadId, runId: input.runId } as AgUiEvent);
  } catch (error) {
    if (!(error instanceof Aborted)) throw error;
  }
}

export function modelCallFailed(): AgUiEvent {
  return {
    type: "RUN_ERROR",
    code: ExceptionCode.modelCall,
    message: "Service failed to complete the prompt: simulated provider 500",
  } as AgUiEvent;
}

export function notFound(interruptId: string): AgUiEvent {
  return {
    type: "RUN_ERROR",
    code: OutcomeCode.NOT_FOUND,
    message: `No pending approval interrupt found for resume interruptId '${interruptId}'`,
  } as AgUiEvent;
}

export function invalid(message: string): AgUiEvent {
  return { type: "RUN_ERROR", code: OutcomeCode.INVALID, message } as AgUiEvent;
}

/** 1.7.0's answer to a resume that leaves out an open interrupt of the thread. */
export function missingInterrupt(interruptId: string): AgUiEvent {
  return {
    type: "RUN_ERROR",
    code: OutcomeCode.MISSING_INTERRUPT,
    message: `Resume omitted pending interruptId '${interruptId}'.`,
  } as AgUiEvent;
}
