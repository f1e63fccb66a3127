import type { OutboxEntry } from "../outbox/entry";
import type { AgUiEvent } from "../protocol";
import * as S from "../protocol/shape-check";
import { loadEventValidator, loadedEventValidator } from "../stream/load-event-validator";
import { isValidSimpleEvent } from "../stream/simple-event-check";
import { FOLDED_TYPES } from "../thread/thread-draft";
import { checkOutboxEntry } from "./entry-check";

/*
 * What tabs of one origin and namespace tell each other, checked once on arrival
 * by hand (so a page reads its tabs without loading zod); test/support/tab-message-spec.ts
 * is the zod specification it is held to. What does not match is dropped, never thrown.
 */

export const TabMessageType = {
  /** An entry was written: mirror it. */
  entryChanged: "entry-changed",
  /** A follower committed a new answer: the leader loads it by key and sends it. */
  entryAdded: "entry-added",
  entriesRemoved: "entries-removed",
  /** The AG-UI events one chunk applied to a thread in the sending tab. */
  threadEvents: "thread-events",
  /** A background run record changed in storage: read the runs again. */
  backgroundChanged: "background-changed",
  /** The leader heard an `entry-added`: the follower's `answer()` may resolve. */
  entryAck: "entry-ack",
  leader: "leader",
  /** A tab joined; the leader answers `leader`, every other tab `here`. */
  hello: "hello",
  here: "here",
  /** A tab left: with none left, thread events are no longer posted. */
  bye: "bye",
  /** A follower asks the leader to act (only the leader writes delivery state). */
  request: "request",
} as const;
export type TabMessageType = (typeof TabMessageType)[keyof typeof TabMessageType];

/** Marks our messages on a channel other code might share. */
export const TAB_PROTOCOL = "agui-outbox/tabs";
export const TAB_PROTOCOL_VERSION = 1;

export type TabRequest =
  | { kind: "retry-now"; key: string }
  | { kind: "retry-all" }
  | { kind: "resume-after-auth" }
  /** A follower started a background run: the leader picks it up from storage. */
  | { kind: "resume-background" };

/** By hand, so a plain `OutboxEntry` (no index signature) can be broadcast. */
export type TabMessage =
  | { readonly type: typeof TabMessageType.entryChanged; readonly entry: OutboxEntry }
  /** `entry`: as written, for stores not shared between tabs (the memory fallback). */
  | { readonly type: typeof TabMessageType.entryAdded; readonly key: string; readonly entry: OutboxEntry }
  | { readonly type: typeof TabMessageType.entriesRemoved; readonly keys: readonly string[] }
  | {
      readonly type: typeof TabMessageType.threadEvents;
      readonly threadId: string;
      readonly events: readonly AgUiEvent[];
    }
  | { readonly type: typeof TabMessageType.entryAck; readonly key: string }
  | { readonly type: typeof TabMessageType.backgroundChanged }
  | { readonly type: typeof TabMessageType.leader; readonly tabId: string }
  | { readonly type: typeof TabMessageType.hello }
  | { readonly type: typeof TabMessageType.here }
  | { readonly type: typeof TabMessageType.bye }
  | { readonly type: typeof TabMessageType.request; readonly request: TabRequest };

export interface TabEnvelope {
  readonly protocol: typeof TAB_PROTOCOL;
  readonly version: typeof TAB_PROTOCOL_VERSION;
  /** The sending tab's id. */
  readonly from: string;
  readonly namespace: string;
  readonly message: TabMessage;
}

const request = S.variants(
  "kind",
  {
    "retry-now": { key: S.nonEmptyString },
    "retry-all": {},
    "resume-after-auth": {},
    "resume-background": {},
  } satisfies Record<TabRequest["kind"], S.Shape>,
  S.Rest.strip,
);

const message = S.variants(
  "type",
  {
    [TabMessageType.entryChanged]: { entry: checkOutboxEntry },
    [TabMessageType.entryAdded]: { key: S.nonEmptyString, entry: checkOutboxEntry },
    [TabMessageType.entriesRemoved]: { keys: S.arrayOf(S.nonEmptyString) },
    // Events are checked as the stream reader checks them, by the coordinator.
    [TabMessageType.threadEvents]: { threadId: S.nonEmptyString, events: S.arrayOf(S.jsonObject) },
    [TabMessageType.entryAck]: { key: S.nonEmptyString },
    [TabMessageType.backgroundChanged]: {},
    [TabMessageType.leader]: { tabId: S.nonEmptyString },
    [TabMessageType.hello]: {},
    [TabMessageType.here]: {},
    [TabMessageType.bye]: {},
    [TabMessageType.request]: { request },
  } satisfies Record<TabMessageType, S.Shape>,
  S.Rest.strip,
);

const envelope = S.objectOf(
  {
    protocol: S.oneOf([TAB_PROTOCOL]),
    version: S.oneOf([TAB_PROTOCOL_VERSION]),
    from: S.nonEmptyString,
    namespace: S.nonEmptyString,
    message,
  },
  S.Rest.strip,
);

/**
 * On the channel, thread events travel as one JSON text: a string is cloned in
 * one copy, an array of events object by object, in the sender and again in
 * every receiver. Only what a thread folds crosses, without the metadata it never
 * reads, and consecutive deltas to one target go joined: a stream is mostly deltas.
 */
export function toWire(message: TabMessage): unknown {
  if (message.type !== TabMessageType.threadEvents) return message;
  return { ...message, events: JSON.stringify(foldable(message.events)) };
}

/** The field naming what a delta event appends to. */
const DELTA_TARGET: Readonly<Record<string, string>> = {
  TEXT_MESSAGE_CONTENT: "messageId",
  TOOL_CALL_ARGS: "toolCallId",
};

function foldable(events: readonly AgUiEvent[]): readonly unknown[] {
  const joined: Record<string, unknown>[] = [];
  for (const event of events as readonly Record<string, unknown>[]) {
    if (!FOLDED_TYPES.has(event.type as string)) continue;
    const target = DELTA_TARGET[event.type as string];
    const last = joined.at(-1);
    // `last` is a copy: appending to it leaves the applied event as it was.
    if (target && last && last.type === event.type && last[target] === event[target])
      last.delta = `${last.delta}${event.delta}`;
    else {
      const { metadata, timestamp, rawEvent, ...folded } = event;
      joined.push(folded);
    }
  }
  return joined;
}

/** The envelope with its thread events read back from their text; text that is not JSON: `undefined`. */
export function fromWire(data: unknown): unknown {
  const message = (data as { message?: { type?: unknown; events?: unknown } } | null)?.message;
  if (message?.type !== TabMessageType.threadEvents || typeof message.events !== "string") return data;
  try {
    return { ...(data as object), message: { ...message, events: JSON.parse(message.events) } };
  } catch {
    return undefined;
  }
}

/** A checked copy of the envelope, or `undefined` for anything not ours in this version. */
export function parseTabEnvelope(data: unknown): TabEnvelope | undefined {
  const parsed = envelope(data);
  return parsed === S.INVALID ? undefined : (parsed as TabEnvelope);
}

/** Thread events checked as the stream reader does; `undefined`: wait for the schemas, `null`: refused. */
export function checkThreadEvents(envelope: TabEnvelope): TabEnvelope | null | undefined {
  const message = envelope.message;
  if (message.type !== TabMessageType.threadEvents || message.events.every(isValidSimpleEvent))
    return envelope;
  const validate = loadedEventValidator();
  if (validate === undefined) return undefined;
  try {
    const events = message.events.map((event) =>
      isValidSimpleEvent(event) ? event : validate(event, undefined),
    );
    return { ...envelope, message: { ...message, events } };
  } catch {
    // An event the schemas refuse makes the whole message unreadable: null is how the
    // caller counts and reports a refused message, so nothing is dropped unseen.
    return null;
  }
}

/**
 * Reads in arrival order: data `read` declines waits for the AG-UI event
 * schemas to load, and what arrives after it waits behind it.
 */
export function orderedReader(read: (data: unknown) => boolean, unreadable: () => void) {
  const unread: unknown[] = [];
  const next = (): void => {
    while (unread.length > 0) {
      const waiting = unread[0];
      if (!read(waiting)) {
        loadEventValidator().then(next, () => {
          if (unread[0] === waiting) unread.shift();
          unreadable();
          next();
        });
        return;
      }
      unread.shift();
    }
  };
  return {
    push(data: unknown): void {
      unread.push(data);
      if (unread.length === 1) next();
    },
  };
}
