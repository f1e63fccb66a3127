import {
  type AgUiEvent,
  BackgroundPollRequestSchema,
  type BackgroundResponse,
  OutcomeCode,
} from "@agui-outbox/core/protocol";
import {
  type BackgroundCall,
  BackgroundCallState,
  type BackgroundRunRecord,
  lastSeqOf,
} from "../store/background-records";
import type { StoredFrame } from "../store/records";
import { stampCursor } from "../store/release-claim";

/*
 * The background run's answers to the HTTP layer and its record's
 * transitions (frames appended, a call replaced, finished, failed), each a
 * pure function of the record read, so a poll writes one whole new version.
 */

/** A JSON answer for the HTTP layer. */
export interface BackgroundAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export function error(status: number, code: string, message: string): BackgroundAnswer {
  return { status, body: { error: { code, message } } };
}

/** Retryable: the held token stays current. 429 passes a model's rate limit on; anything else is 503. */
export function transient(message: string, status: 429 | 503 = 503, retryAfterMs = 1000): BackgroundAnswer {
  const code = status === 429 ? OutcomeCode.RATE_LIMITED : OutcomeCode.UNAVAILABLE;
  const seconds = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  return { ...error(status, code, message), headers: { "retry-after": seconds } };
}

/** The token of a poll's body, or why the body is not a poll (both answer 400). */
export function parsePollRequest(
  raw: Buffer,
):
  | { readonly ok: true; readonly token: string }
  | { readonly ok: false; readonly code: string; readonly message: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString("utf8"));
  } catch {
    return { ok: false, code: OutcomeCode.INVALID_JSON, message: "the request body is not valid JSON" };
  }
  const parsed = BackgroundPollRequestSchema.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      code: OutcomeCode.INVALID_REQUEST,
      message: "the body must be {continuationToken: string}",
    };
  }
  return { ok: true, token: parsed.data.continuationToken };
}

export function newToken(randomUUID: () => string): string {
  return `bgt_${randomUUID()}`;
}

export function runIdUsed(): BackgroundAnswer {
  return error(409, OutcomeCode.INVALID_REQUEST, "this runId is already used; a new run needs a new runId");
}

export function pollInProgress(): BackgroundAnswer {
  return error(409, OutcomeCode.BACKGROUND_POLL_IN_PROGRESS, "another poll of this run is in progress");
}

export function appendFrames(run: BackgroundRunRecord, events: readonly AgUiEvent[]): StoredFrame[] {
  let seq = lastSeqOf(run);
  const added = events.map((event) => {
    seq += 1;
    return { seq, event: stampCursor(event, run.runId, seq) };
  });
  return [...run.frames, ...added];
}

export function replaceCall(
  run: BackgroundRunRecord,
  index: number,
  call: BackgroundCall,
): BackgroundRunRecord {
  const calls = [...(run.calls ?? [])];
  calls[index] = call;
  return { ...run, calls };
}

/** The call at `index` may or may not have taken effect: INDETERMINATE, and the run fails saying so. */
export function cutOff(
  run: BackgroundRunRecord,
  index: number,
  polledToken: string,
  why: string,
): BackgroundRunRecord {
  const call = run.calls?.[index];
  if (call === undefined) throw new Error(`no call at ${index} in ${run.runId}`);
  const cut = replaceCall(run, index, { ...call, state: BackgroundCallState.indeterminate });
  return fail(
    cut,
    polledToken,
    OutcomeCode.BACKGROUND_TOOL_RESULT_INDETERMINATE,
    `tool call ${call.toolCallId} ${why}`,
  );
}

export function finished(run: BackgroundRunRecord): AgUiEvent {
  return {
    type: "RUN_FINISHED",
    threadId: run.threadId,
    runId: run.runId,
    outcome: { type: "success" },
  } as AgUiEvent;
}

export function finish(
  run: BackgroundRunRecord,
  polledToken: string,
  terminal: AgUiEvent,
): BackgroundRunRecord {
  return {
    ...run,
    status: "completed",
    token: null,
    finalToken: polledToken,
    poll: null,
    frames: appendFrames(run, [terminal]),
  };
}

export function fail(
  run: BackgroundRunRecord,
  polledToken: string,
  code: string,
  message: string,
): BackgroundRunRecord {
  return {
    ...run,
    status: "failed",
    token: null,
    finalToken: polledToken,
    poll: null,
    error: { code, message },
    frames: appendFrames(run, [{ type: "RUN_ERROR", code, message } as AgUiEvent]),
  };
}

export function responseOf(run: BackgroundRunRecord, afterSeq: number): BackgroundResponse {
  return {
    runId: run.runId,
    threadId: run.threadId,
    status: run.status,
    continuationToken: run.token,
    events: run.frames.filter((frame) => frame.seq > afterSeq).map((frame) => ({ ...frame.event })),
    lastSeq: lastSeqOf(run),
    error: run.error,
  };
}
