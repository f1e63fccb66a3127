import type { StreamCursor } from "../protocol/index";

/** What to do with an event, judged by its cursor. */
export const CursorVerdict = {
  /** Not seen before and next in line: apply it. */
  fresh: "fresh",
  /** At or before the last processed seq of its run: a replay, drop it. */
  duplicate: "duplicate",
  /**
   * Ahead of the next expected seq: frames were lost (seq is gap-free per run).
   * Not recorded; re-attach from `lastSeq(runId)` to fill the hole.
   */
  gap: "gap",
} as const;
export type CursorVerdict = (typeof CursorVerdict)[keyof typeof CursorVerdict];

/**
 * Remembers the last processed seq per run, so a re-attach that replays frames
 * the client already applied never shows a message twice.
 */
export interface EventLog {
  /**
   * Judges a cursor and, when it is `fresh`, records it as processed. An event
   * without a cursor (a server without the recovery contract) is always
   * `fresh`: there is nothing to de-duplicate by.
   */
  accept(cursor: StreamCursor | undefined): CursorVerdict;
  /** The last processed seq of a run; 0 when none was processed. */
  lastSeq(runId: string): number;
}

/**
 * Creates an event log, seeded with cursors that were already processed
 * (for example the `cursor` persisted on an outbox entry before a reload).
 */
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
