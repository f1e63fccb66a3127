import type { StreamCursor } from "../protocol/index";

/** What to do with an event, judged by its cursor. */
export const CursorVerdict = {
  fresh: "fresh",
  /** A replay: drop it. */
  duplicate: "duplicate",
  /** Frames were lost (seq is gap-free per run): re-attach from `lastSeq(runId)`. Not recorded. */
  gap: "gap",
} as const;
export type CursorVerdict = (typeof CursorVerdict)[keyof typeof CursorVerdict];

/** The last processed seq per run, so a re-attach's replay never shows a message twice. */
export interface EventLog {
  /** Judges a cursor, recording a `fresh` one; no cursor (no contract) is always `fresh`. */
  accept(cursor: StreamCursor | undefined): CursorVerdict;
  /** The last processed seq of a run; 0 when none was processed. */
  lastSeq(runId: string): number;
}

/** An event log seeded with cursors already processed (an entry's persisted `cursor`). */
export function createEventLog(processed: Iterable<StreamCursor> = []): EventLog {
  const last = new Map<string, number>();
  for (const cursor of processed) {
    if (cursor.seq > (last.get(cursor.runId) ?? 0)) last.set(cursor.runId, cursor.seq);
  }
  return {
    accept(cursor) {
      if (cursor === undefined) return CursorVerdict.fresh;
      const lastSeq = last.get(cursor.runId) ?? 0;
      if (cursor.seq <= lastSeq) return CursorVerdict.duplicate;
      if (cursor.seq > lastSeq + 1) return CursorVerdict.gap;
      last.set(cursor.runId, cursor.seq);
      return CursorVerdict.fresh;
    },
    lastSeq(runId) {
      return last.get(runId) ?? 0;
    },
  };
}
