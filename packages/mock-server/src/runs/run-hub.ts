import { type AgUiEvent, formatEventId, MetadataKey } from "@agui-outbox/core/protocol";
import type { SseStream } from "@agui-outbox/server";
import type { MockState, RunRecord, StoredFrame } from "../state/mock-state";

/** One pass of a run: RUN_STARTED … exactly one RUN_FINISHED or RUN_ERROR. */
export interface Attempt {
  readonly runId: string;
  readonly threadId: string;
  /** The run's last seq before this attempt began. */
  readonly startSeq: number;
  readonly key: string | null;
}

export interface RunHubDeps {
  readonly state: () => MockState;
  readonly save: () => void;
  readonly now: () => number;
}

export function isTerminal(event: AgUiEvent): boolean {
  return event.type === "RUN_FINISHED" || event.type === "RUN_ERROR";
}

/**
 * Run logs and their live readers. The log is per runId: a retry after a
 * rolled-back attempt appends to it and continues the seq numbering, so a
 * client's cursor stays valid across attempts. Readers are views: closing one
 * never stops the run.
 */
export class RunHub {
  readonly #deps: RunHubDeps;
  readonly #live = new Map<string, Attempt>();
  readonly #readers = new Map<string, Set<SseStream>>();

  constructor(deps: RunHubDeps) {
    this.#deps = deps;
  }

  isLive(runId: string): boolean {
    return this.#live.has(runId);
  }

  get(runId: string): RunRecord | undefined {
    return this.#deps.state().runs[runId];
  }

  begin(runId: string, threadId: string, key: string | null): Attempt {
    const state = this.#deps.state();
    const now = this.#deps.now();
    let run = state.runs[runId];
    if (run === undefined) {
      run = {
        runId,
        threadId,
        frames: [],
        lastSeq: 0,
        terminal: null,
        createdAt: now,
        updatedAt: now,
        expired: false,
        continuationToken: null,
      };
      state.runs[runId] = run;
    }
    run.terminal = null;
    run.expired = false;
    run.updatedAt = now;
    const attempt: Attempt = { runId, threadId, startSeq: run.lastSeq, key };
    this.#live.set(runId, attempt);
    return attempt;
  }

  /** Stamps the cursor on the event, persists it, then hands it to live readers. */
  append(attempt: Attempt, event: AgUiEvent): StoredFrame {
    const run = this.#deps.state().runs[attempt.runId];
    if (run === undefined || this.#live.get(attempt.runId) !== attempt) {
      throw new Error(`run ${attempt.runId} has no live attempt`);
    }
    const seq = run.lastSeq + 1;
    const stamped = {
      ...event,
      metadata: { ...(event.metadata ?? {}), [MetadataKey.stream]: { runId: attempt.runId, seq } },
    } as AgUiEvent;
    const frame: StoredFrame = { seq, event: stamped };
    run.frames.push(frame);
    run.lastSeq = seq;
    run.updatedAt = this.#deps.now();
    const terminal = isTerminal(stamped);
    if (terminal) {
      run.terminal = stamped;
      this.#live.delete(attempt.runId);
    }
    this.#deps.save();
    for (const reader of this.#readers.get(attempt.runId) ?? []) {
      reader.writeFrame(formatEventId({ runId: attempt.runId, seq }), stamped);
      if (terminal) reader.end();
    }
    return frame;
  }

  /** Ends a live attempt that hit an unexpected error with a `RUN_ERROR`. */
  abandon(runId: string, message: string): void {
    const attempt = this.#live.get(runId);
    if (attempt !== undefined)
      this.append(attempt, { type: "RUN_ERROR", code: "SERVICE_UNAVAILABLE", message } as AgUiEvent);
  }

  /** Events of this attempt so far, in order. */
  eventsOf(attempt: Attempt): AgUiEvent[] {
    const run = this.#deps.state().runs[attempt.runId];
    return (run?.frames ?? []).filter((frame) => frame.seq > attempt.startSeq).map((frame) => frame.event);
  }

  /**
   * Replays the frames after `afterSeq`, then tails the live attempt until its
   * terminal event; a run with no live attempt ends right after the replay.
   */
  attach(runId: string, afterSeq: number, reader: SseStream): void {
    const run = this.#deps.state().runs[runId];
    if (run === undefined) {
      reader.end();
      return;
    }
    for (const frame of run.frames) {
      if (frame.seq > afterSeq) reader.writeFrame(formatEventId({ runId, seq: frame.seq }), frame.event);
    }
    if (!this.#live.has(runId) || reader.closed) {
      reader.end();
      return;
    }
    let readers = this.#readers.get(runId);
    if (readers === undefined) {
      readers = new Set();
      this.#readers.set(runId, readers);
    }
    readers.add(reader);
    reader.onClose(() => {
      const set = this.#readers.get(runId);
      set?.delete(reader);
      if (set?.size === 0) this.#readers.delete(runId);
    });
  }

  /** Forgets every live attempt and cuts every reader (crash, reset, close). */
  dropAll(): void {
    this.#live.clear();
    const readers = [...this.#readers.values()].flatMap((set) => [...set]);
    this.#readers.clear();
    for (const reader of readers) reader.drop();
  }
}
