import type { RecordedDecision } from "../protocol/extensions";
import type { ToolEvidence } from "./tool-evidence";

/** What the transport observed about one delivery, as data: the classifier never sees the wire. */
export type DeliverySignal =
  /** `RUN_FINISHED` after our resume; `replayed` when `x-resume.replayed` said so. */
  | {
      readonly type: "run-finished";
      readonly replayed: boolean;
      readonly originalRunId?: string;
      /** No contract: what the streamed thread shows about the tool call. */
      readonly toolEvidence?: ToolEvidence;
      /** No contract: the thread shows others of the batch taken, not this one (Agent Framework 1.0.1). */
      readonly skippedInBatch?: boolean;
      /** No contract: the run finished with this answer's question still open (Agent Framework 1.7.0). */
      readonly askedAgain?: boolean;
    }
  /** `RUN_STARTED`; `acked`: `x-resume.ack === "claimed"` named our key (ignored without the contract). */
  | { readonly type: "run-started"; readonly acked: boolean }
  /** `RUN_ERROR`, with the `x-resume` conflict metadata when the server sent it. */
  | {
      readonly type: "run-error";
      readonly code?: string;
      readonly message: string;
      readonly recordedDecisions?: readonly RecordedDecision[];
      /** `x-resume.claimedBy`: the run holding the claim (for `…_IN_PROGRESS`). */
      readonly claimedBy?: string;
    }
  /** A non-2xx answer, with the JSON error body's code and message when it had one. */
  | {
      readonly type: "http-status";
      readonly status: number;
      readonly code?: string;
      readonly message?: string;
      /** `Retry-After`, already converted to milliseconds from now. */
      readonly retryAfterMs?: number;
    }
  /** `fetch` rejected, or reading the body failed, before a terminal event. */
  | ({ readonly type: "network-error"; readonly message?: string } & StreamCut)
  /** The body ended (EOF) without `RUN_FINISHED` or `RUN_ERROR`. */
  | ({ readonly type: "stream-ended" } & StreamCut)
  /** The watchdog fired: no byte for its interval (a 200 that never sends a byte lands here). */
  | ({ readonly type: "stream-stalled" } & StreamCut)
  /** The bytes were not a readable AG-UI event stream. */
  | ({
      readonly type: "invalid-stream";
      readonly kind: InvalidStreamKind;
      readonly message: string;
    } & StreamCut)
  /** Re-attach (`GET /agent/runs/{runId}/events`) answered 404 (unknown run) or 410 (log expired). */
  | { readonly type: "reattach-gone"; readonly status: 404 | 410 }
  /** The run status after a refused re-attach; one with a terminal event is fed as that event. */
  | { readonly type: "run-status"; readonly status: "running" | "not-found" }
  /** What a hydration of the thread showed about our interrupt. */
  | {
      readonly type: "hydrated";
      readonly toolEvidence: ToolEvidence;
      readonly interruptStillOpen: boolean;
    }
  /** The transport's retry budget for this entry ran out. */
  | { readonly type: "retry-budget-exhausted"; readonly attempts: number };

export type DeliverySignalType = DeliverySignal["type"];

/** What a stream that ended before its terminal event had already shown. */
interface StreamCut {
  /** No contract: the stream carried a tool result for every answer of the request. */
  readonly toolResultsSeen?: boolean;
}

/** The ways a 2xx body can fail to be an event stream; mirrors the matching `ErrorKind`s. */
export const InvalidStreamKind = {
  /** Not `text/event-stream` (for example an HTML page served with 200). */
  notEventStream: "not_event_stream",
  /** Broken SSE framing (for example a frame over the size limit). */
  malformedStream: "malformed_stream",
  /** A frame's data is not JSON. */
  invalidJson: "invalid_json",
  /** JSON that is not a valid AG-UI event (including unknown event types). */
  invalidEvent: "invalid_event",
} as const;
export type InvalidStreamKind = (typeof InvalidStreamKind)[keyof typeof InvalidStreamKind];

export { ServerKind } from "./server-kind";
