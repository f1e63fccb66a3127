import type { OutboxEntry } from "../outbox/entry";
import type { AgUiEvent } from "../protocol";
import {
  arrayOf,
  INVALID,
  jsonObject,
  nonEmptyString,
  objectOf,
  oneOf,
  Rest,
  type Shape,
  variants,
} from "../protocol/shape-check";
import { checkOutboxEntry } from "./entry-check";
import { TAB_PROTOCOL, TAB_PROTOCOL_VERSION, TabMessageType } from "./tab-protocol";

/*
 * What tabs of one origin and namespace tell each other, checked once at the
 * boundary: anything that does not match is dropped, never thrown. The check is
 * by hand, exactly as the zod schemas of tab-message-schema.ts parse (which
 * tab-message-check.test.ts holds it to), so a page reads its tabs without
 * loading zod. A thread message's `events` are only required to be objects here:
 * the coordinator checks it as the stream reader does (tab-coordinator.ts), by
 * hand for a run's ordinary events and with the AG-UI schemas, loaded on demand,
 * for any other.
 */
export { TAB_PROTOCOL, TAB_PROTOCOL_VERSION, TabMessageType } from "./tab-protocol";

/** Follower → leader requests; the follower never changes delivery state itself. */
export type TabRequest =
  | { kind: "retry-now"; key: string }
  | { kind: "retry-all" }
  | { kind: "resume-after-auth" }
  /** A follower started a background run: the leader picks it up from storage and polls it. */
  | { kind: "resume-background" };

/**
 * Written by hand so that a plain `OutboxEntry` can be broadcast (the parsed,
 * loose shape carries an index signature an interface lacks);
 * tab-message-schema.ts keeps the schema's output assignable to it.
 */
export type TabMessage =
  | { readonly type: typeof TabMessageType.entryChanged; readonly entry: OutboxEntry }
  /** `entry`: as written, for stores that are not shared between tabs (the memory fallback). */
  | { readonly type: typeof TabMessageType.entryAdded; readonly key: string; readonly entry: OutboxEntry }
  | { readonly type: typeof TabMessageType.entriesRemoved; readonly keys: readonly string[] }
  /** `events`: checked against the AG-UI event schema by the coordinator before anyone sees them. */
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
/** One member of the union, by `type`. */
export type TabMessageOf<T extends TabMessageType> = Extract<TabMessage, { type: T }>;

/** What travels on the channel: the message, who sent it, and for which namespace. */
export interface TabEnvelope {
  readonly protocol: typeof TAB_PROTOCOL;
  readonly version: typeof TAB_PROTOCOL_VERSION;
  /** The sending tab's id. */
  readonly from: string;
  readonly namespace: string;
  readonly message: TabMessage;
}

const request = variants(
  "kind",
  {
    "retry-now": { key: nonEmptyString },
    "retry-all": {},
    "resume-after-auth": {},
    "resume-background": {},
  } satisfies Record<TabRequest["kind"], Shape>,
  Rest.strip,
);

const message = variants(
  "type",
  {
    [TabMessageType.entryChanged]: { entry: checkOutboxEntry },
    [TabMessageType.entryAdded]: { key: nonEmptyString, entry: checkOutboxEntry },
    [TabMessageType.entriesRemoved]: { keys: arrayOf(nonEmptyString) },
    [TabMessageType.threadEvents]: { threadId: nonEmptyString, events: arrayOf(jsonObject) },
    [TabMessageType.entryAck]: { key: nonEmptyString },
    [TabMessageType.backgroundChanged]: {},
    [TabMessageType.leader]: { tabId: nonEmptyString },
    [TabMessageType.hello]: {},
    [TabMessageType.here]: {},
    [TabMessageType.bye]: {},
    [TabMessageType.request]: { request },
  } satisfies Record<TabMessageType, Shape>,
  Rest.strip,
);

const envelope = objectOf(
  {
    protocol: oneOf([TAB_PROTOCOL]),
    version: oneOf([TAB_PROTOCOL_VERSION]),
    from: nonEmptyString,
    namespace: nonEmptyString,
    message,
  },
  Rest.strip,
);

/** The envelope (a checked copy), or `undefined` for anything that is not one of ours in this version. */
export function parseTabEnvelope(data: unknown): TabEnvelope | undefined {
  const parsed = envelope(data);
  // As TabEnvelopeSchema outputs it, which tab-message-schema.ts checks is a TabEnvelope.
  return parsed === INVALID ? undefined : (parsed as TabEnvelope);
}
