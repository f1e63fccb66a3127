import type { AgUiEvent, RunAgentInput } from "@agui-outbox/core/protocol";
import type { StoredToolResult } from "../store/records";

/** One step of a background run: the model's response to the input so far. */
export interface BackgroundTurn {
  /** The request, then each submitted step's assistant message and tool results. */
  readonly input: RunAgentInput;
  /** 0 for the first response, 1 after the first submission, … */
  readonly step: number;
  readonly signal: AbortSignal;
  /** The caller's identity, as the app's `identify` returned it; undefined without `identify`. Scope your own data by it. */
  readonly identity: string | undefined;
}

/** A step's stored tool results, handed to the model. */
export interface BackgroundSubmission {
  readonly runId: string;
  readonly threadId: string;
  readonly step: number;
  readonly results: readonly StoredToolResult[];
  readonly signal: AbortSignal;
  /** The caller's identity, as the app's `identify` returned it; undefined without `identify`. Scope your own data by it. */
  readonly identity: string | undefined;
}

/**
 * Background runs, shaped after background responses with continuation
 * tokens: each poll advances the run one step. `respond` yields the step's
 * model response (text and tool calls; `RUN_STARTED`/`RUN_FINISHED` are the
 * library's); a step with no tool call ends the run. The tool calls it asks
 * for run through the wrapped tools once each, their results stored before
 * `submit` hands them on. A `submit` that throws leaves the held token current:
 * the next poll with it submits the same stored results again, and never runs
 * the tools a second time.
 */
export interface BackgroundAgent {
  /** Called once per step: its events are stored only once it returned whole, so a failed call is simply asked again. */
  respond(turn: BackgroundTurn): AsyncIterable<AgUiEvent> | Iterable<AgUiEvent>;
  /**
   * Hands the step's results to the model (for example, POSTs the function
   * outputs). Throw {@link DeliveryRejected} when they are refused for good;
   * throw {@link DeliveryDeferred} to pass on the model's own retry hint (a
   * 429 with `Retry-After`); any other error is taken as transient (503,
   * retry after 1 s). @default results go to the next
   * step's `respond` as tool messages
   */
  submit?(submission: BackgroundSubmission): unknown;
}

/** The model refused the tool outputs for good: the run fails with `BACKGROUND_TOOL_DELIVERY_REJECTED`. */
export class DeliveryRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DeliveryRejected";
  }
}

/**
 * The model asked for the tool outputs again later (for example a 429 with
 * `Retry-After`): the poll answers with that status and `Retry-After`, and the
 * held token stays current, as for any transient failure.
 */
export class DeliveryDeferred extends Error {
  readonly status: 429 | 503;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, status: 429 | 503 = 503, retryAfterMs?: number) {
    super(message);
    this.name = "DeliveryDeferred";
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}
