import type {
  EntryError,
  EntryState,
  OutboxClient,
  OutboxEntry,
  OutboxState,
  ReadonlyStore,
} from "@agui-outbox/core";
import { createStore } from "zustand/vanilla";

/** One moment in an entry's life, as the inspector shows it. */
export interface TimelineStep {
  /** Epoch ms: the entry's `updatedAt` for a change, `createdAt` / `firstSentAt` for the first steps. */
  readonly at: number;
  /** The state the entry moved to, or "answered" / "first sent" (read from its timestamps). */
  readonly what: EntryState | "answered" | "first sent";
  /**
   * "seen": this page watched it happen; "stored": rebuilt from the fields of an
   * entry that was already there when recording started (a reload, another tab).
   */
  readonly source: "seen" | "stored";
  readonly state: EntryState;
  readonly attempts: number;
  readonly nextAttemptAt: number | null;
  readonly error: EntryError | null;
  /** The verdict rule the entry carried then (`entry.rule`). */
  readonly rule: string | null;
}

export type Timelines = ReadonlyMap<string, readonly TimelineStep[]>;

export interface TimelineRecorder extends ReadonlyStore<Timelines> {
  stop(): void;
}

// A long-lived entry retrying for hours must not grow without bound: keep the latest.
const MAX_STEPS = 200;

function stepOf(entry: OutboxEntry, source: TimelineStep["source"]): TimelineStep {
  return {
    at: entry.updatedAt,
    what: entry.state,
    source,
    state: entry.state,
    attempts: entry.attempts,
    nextAttemptAt: entry.nextAttemptAt,
    error: entry.lastError,
    rule: entry.rule ?? null,
  };
}

/** What an entry's own fields tell of its past: when it was answered and first sent, and where it is. */
function firstSteps(entry: OutboxEntry, source: TimelineStep["source"]): TimelineStep[] {
  const now = stepOf(entry, source);
  const before = { ...now, attempts: 0, nextAttemptAt: null, error: null, rule: null };
  const steps: TimelineStep[] = [{ ...before, at: entry.createdAt, what: "answered" }];
  const firstSentAt = entry.counters?.firstSentAt;
  if (typeof firstSentAt === "number" && firstSentAt < entry.updatedAt)
    steps.push({ ...before, at: firstSentAt, what: "first sent", attempts: 1 });
  steps.push(now);
  return steps;
}

/** A transition worth a step: the state, the attempt, the rule or the failure changed. */
function changed(previous: OutboxEntry, next: OutboxEntry): boolean {
  return (
    previous.state !== next.state ||
    previous.attempts !== next.attempts ||
    previous.rule !== next.rule ||
    previous.lastError?.code !== next.lastError?.code ||
    previous.lastError?.message !== next.lastError?.message
  );
}

/**
 * Records each entry's transitions from the outbox store the client publishes
 * (every committed change, this tab's and the others'), from now on. Entries
 * already there start from what their own fields say.
 */
export function recordTimelines(outbox: ReadonlyStore<OutboxState>): TimelineRecorder {
  let known = new Map(outbox.getState().entries.map((entry) => [entry.key, entry]));
  const store = createStore<Timelines>(
    () => new Map([...known.values()].map((entry) => [entry.key, firstSteps(entry, "stored")])),
  );
  const stop = outbox.subscribe((state) => {
    const timelines = new Map(store.getState());
    let touched = false;
    const next = new Map(state.entries.map((entry) => [entry.key, entry]));
    for (const [key, entry] of next) {
      const previous = known.get(key);
      if (previous === entry) continue;
      if (previous === undefined) timelines.set(key, firstSteps(entry, "seen"));
      else if (changed(previous, entry))
        timelines.set(key, [...(timelines.get(key) ?? []), stepOf(entry, "seen")].slice(-MAX_STEPS));
      else continue;
      touched = true;
    }
    for (const key of known.keys()) touched = (!next.has(key) && timelines.delete(key)) || touched;
    known = next;
    if (touched) store.setState(timelines, true);
  });
  return {
    getState: store.getState,
    getInitialState: store.getInitialState,
    subscribe: store.subscribe,
    stop,
  };
}

const recorders = new WeakMap<OutboxClient, TimelineRecorder>();

/**
 * The client's timelines, recorded from the first call on for as long as the
 * client lives: closing the inspector loses nothing.
 */
export function timelinesOf(client: OutboxClient): ReadonlyStore<Timelines> {
  let recorder = recorders.get(client);
  if (recorder === undefined) {
    recorder = recordTimelines(client.outbox);
    recorders.set(client, recorder);
  }
  return recorder;
}
