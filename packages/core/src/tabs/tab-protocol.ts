/**
 * What tabs of one origin and namespace tell each other: the names, which every
 * tab needs to send. What arrives is checked in tab-message.ts.
 */
export const TabMessageType = {
  /** An entry was written (by the leader's delivery, or a follower's conflict verdict): mirror it. */
  entryChanged: "entry-changed",
  /** A follower committed a new answer to the shared store: the leader loads it by key and sends it. */
  entryAdded: "entry-added",
  /** Entries were deleted (discard of a final entry, or `clear()`): forget them. */
  entriesRemoved: "entries-removed",
  /** The AG-UI events one task applied to a thread in the sending tab: apply them to the mirror. */
  threadEvents: "thread-events",
  /** A background run record changed in storage: read the runs again to mirror them. */
  backgroundChanged: "background-changed",
  /** The leader heard an `entry-added`: the follower's `answer()` may resolve. */
  entryAck: "entry-ack",
  /** The sender holds the lock and sends for the namespace. */
  leader: "leader",
  /** A tab joined; the leader answers with `leader`, every other tab with `here`. */
  hello: "hello",
  /** A follower's answer to `hello`: the newcomer is not alone. */
  here: "here",
  /** A tab left: when none is left, thread events are no longer posted. */
  bye: "bye",
  /** A follower asks the leader to act on the person's behalf (only the leader writes delivery state). */
  request: "request",
} as const;
export type TabMessageType = (typeof TabMessageType)[keyof typeof TabMessageType];

/** Marks our messages on a channel other code might share. */
export const TAB_PROTOCOL = "agui-outbox/tabs";
export const TAB_PROTOCOL_VERSION = 1;
