import type { AgUiEvent, RunAgentInput } from "@agui-outbox/core/protocol";
import type { FaultPoint } from "../chaos/fault";
import type { FaultQueue } from "../chaos/fault-queue";
import type { ResolvedOptions } from "../options";
import type { MockState, Occurrence } from "../state/mock-state";
import type { AfDecision } from "./af-payloads";

// The types both generations share: the engine (af-engine.ts) and the newer
// one's resume (af-lifecycle.ts) each import them, and not each other.

export type AfFlavour = "af-legacy" | "af-lifecycle";

/** Where a run without the contract writes: a bare SSE response, no ids, no log. */
export interface AfSink {
  readonly closed: boolean;
  writeFrame(id: undefined, data: unknown): void;
  end(): void;
}

export interface AfEngineDeps {
  readonly options: ResolvedOptions;
  readonly faults: FaultQueue;
  readonly state: () => MockState;
  readonly save: () => void;
  /** A liveness check bound to the current instance and reset epoch. */
  readonly aliveCheck: () => () => boolean;
  readonly crashAt: (point: string) => void;
}

/** What a tool run leaves: its result message. */
export interface ToolResult {
  readonly messageId: string;
  readonly content: string;
}

/** One call of the turn a resume finishes: its interrupt, the decision read, the result. */
export interface TurnCall {
  readonly occurrence: Occurrence;
  readonly decision: AfDecision;
  readonly result: ToolResult | null;
}

/** What both generations share, for the lifecycle resume (af-lifecycle.ts). */
export interface AfShared {
  readonly deps: AfEngineDeps;
  /**
   * Occurrences (by `occurrenceKey`) still pending and still required in a resume,
   * that hydration does not show: both releases keep such questions after a batch.
   */
  readonly hidden: Set<string>;
  fault(point: FaultPoint, threadId: string): Promise<boolean>;
  executeOnce(
    occurrence: Occurrence,
    args: Record<string, unknown>,
    alive: () => boolean,
    sink: AfSink,
  ): Promise<ToolResult>;
  finishTurn(
    input: RunAgentInput,
    calls: readonly TurnCall[],
    emit: (event: AgUiEvent) => void,
    flavour: AfFlavour,
    started: boolean,
  ): Promise<void>;
  recordToolResult(threadId: string, occurrence: Occurrence, result: ToolResult): void;
  recordRejection(threadId: string, occurrence: Occurrence): void;
  finishCancelled(input: RunAgentInput, emit: (event: AgUiEvent) => void, started?: boolean): void;
}
