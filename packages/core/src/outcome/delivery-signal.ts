import type { RecordedDecision } from "../protocol/extensions";
import type { ToolEvidence } from "./tool-evidence";

/**
 * What the transport observed about one delivery, reduced to data. The
 * classifier never sees a `Response`, a stream or an exception: the transport
 * parses the wire once at the boundary and hands over one of these.
 */
export type DeliverySignal =
  /** `RUN_FINISHED` after our resume; `replayed` when `x-resume.replayed` said so. */
  | {
      readonly type: "run-finished";
      readonly replayed: boolean;
      readonly originalRunId?: string;
      /**
       * Servers without the contract: what the streamed thread shows about the
       * tool call when the run finished (absent on contract servers, whose
       * RUN_FINISHED after the claim is the evidence).
       */
      readonly toolEvidence?: ToolEvidence;
      /**
       * Servers without the contract: the resume carried other answers of the same
       * run, the streamed thread shows what became of at least one of them, and
       * nothing of this one. The server took those and left this one (Agent
       * Framework 1.0.1 reads only a resume's first entry).
       */
      readonly skippedInBatch?: boolean;
      /**
       * Servers without the contract: the run finished with this answer's question
       * (its interrupt, or one for its tool call) still open: the answer was not
       * taken. Agent Framework 1.7.0 does so with a resume that approves one call
       * and rejects another.
       */
      readonly askedAgain?: boolean;
    }
  /**
   * `RUN_STARTED` after our resume. `acked`: `x-resume.ack === "claimed"` named our
   * key and interrupt ids. On a server without the contract `acked` is ignored:
   * `RUN_STARTED` there means the tool is already running.
   */
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
  /**
   * `GET /agent/runs/{runId}` after a re-attach was refused. A status with a
   * terminal event is fed as that event instead (`run-finished` / `run-error`),
   * so only the two answers without one appear here.
   */
  | { readonly type: "run-status"; readonly status: "running" | "not-found" }
  /** What a hydration of the thread showed about our interrupt. */
  | {
      readonly type: "hydrated";
      /**
       * What the thread shows about the tool call the interrupt guarded: a tool
       * message is evidence it ran only when it is none of the server's markers
       * (tool-evidence.ts).
       */
      readonly toolEvidence: ToolEvidence;
      /** The interrupt is still among the thread's open interrupts. */
      readonly interruptStillOpen: boolean;
    }
  /** The transport's retry budget for this entry ran out. */
  | { readonly type: "retry-budget-exhausted"; readonly attempts: number };

export type DeliverySignalType = DeliverySignal["type"];

/** What a stream that ended before its terminal event had already shown. */
interface StreamCut {
  /**
   * Servers without the contract: the stream carried the tool result of every
   * answer the request held (each a result that is none of the server's markers),
   * so every tool ran, though the end of the run was never seen.
   */
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
