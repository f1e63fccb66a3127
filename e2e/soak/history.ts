// A history: what the client wrote, what the browser asked, and what the server holds,
// in the order it happened. Recorded by record-history.ts, judged by check-history.ts.
import type { Execution, Occurrence } from "../support/mock-control";

/** The loops a client runs, told apart by route and headers (see record-history.ts). */
export type Loop = "resume" | "hydrate" | "reattach" | "status" | "run" | "capabilities";

/** One committed write of an outbox entry, from the tab that wrote it. */
export interface EntryStep {
  readonly kind: "entry";
  readonly tab: number;
  readonly key: string;
  readonly threadId: string;
  readonly interruptId: string;
  readonly toolCallId?: string;
  /** Set on every answer of a batch but the sending one: the key its request carries. */
  readonly sendsWith?: string;
  readonly decision: string;
  readonly state: string;
  readonly attempts: number;
  readonly lastError: string | null;
}

/** One request a page made; `answered` once any response (any status) came back. */
export interface RequestStep {
  readonly kind: "request";
  readonly tab: number;
  readonly loop: Loop;
  /** The Idempotency-Key of a resume. */
  readonly key?: string;
  answered: boolean;
  /**
   * The tool calls whose result its complete response carried (a `TOOL_CALL_RESULT`, or a
   * tool message that is no server's error or rejection text): evidence the client had.
   */
  results?: readonly string[];
  /** How many steps were recorded when its response finished: the client could see it from that step on. */
  finishedAt?: number;
}

/** A page (re)loaded: its in-memory state starts over. */
export interface LoadStep {
  readonly kind: "load";
  readonly tab: number;
}

export type HistoryStep = EntryStep | RequestStep | LoadStep;

/** How many requests each loop may make, from the client's policy. */
export interface Budgets {
  /** Resumes of one key answered by the server between two resumptions of a stall (the retry budget). */
  readonly resumesPerKey: number;
  /** Reads (hydrations, status, re-attaches) per resume sent and per page load. */
  readonly readsPerResume: number;
  readonly readsPerLoad: number;
}

/** What the server holds once faults stopped: the truth the client's verdicts are held to. */
export interface ServerTruth {
  /** True on a server with the recovery contract (its occurrences are reported). */
  readonly contract: boolean;
  /** The Idempotency-Keys of the resumes that reached it (a crash restart forgets earlier ones). */
  readonly receivedKeys: readonly string[];
  readonly occurrences: readonly Occurrence[];
  readonly executions: readonly Execution[];
}

/** One card as a tab shows it at the end. */
export interface CardView {
  readonly tab: number;
  readonly interruptId: string;
  /** The card's `data-state`, or null when no card is on screen. */
  readonly state: string | null;
  /** The "You approved." line: the kept answer, as the person sees it. */
  readonly decisionText: string | null;
}

export interface History {
  readonly threadId: string;
  /** Every question the person answered. */
  readonly asked: readonly string[];
  readonly steps: readonly HistoryStep[];
  readonly server: ServerTruth;
  readonly cards: readonly CardView[];
  readonly budgets: Budgets;
  /**
   * Faults stopped and the answer had time to settle: a resting state (stalled,
   * paused) is then a violation too. Without it a resting state is an ending.
   */
  readonly requireFinal: boolean;
}

/** The verdicts an answer may end in (DESIGN.md). */
export const FINAL_STATES: ReadonlySet<string> = new Set([
  "applied",
  "elsewhere",
  "lost",
  "needs_user",
  "expired",
]);

/** Not final, but the person can act on them: retry now, or sign in again. */
export const RESTING_STATES: ReadonlySet<string> = new Set(["stalled", "paused"]);

// The client's defaults (packages/core: retry-budget.ts, create-outbox-client.ts): 12 sends
// answered by the server; per send at most two re-attaches, a status read and a hydration,
// each of which may be retried once after a failed read.
export const CLIENT_BUDGETS: Budgets = { resumesPerKey: 12, readsPerResume: 8, readsPerLoad: 4 };
