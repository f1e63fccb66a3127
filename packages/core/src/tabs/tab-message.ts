import * as z from "zod/mini";
import type { OutboxEntry } from "../outbox/entry";
import type { AgUiEvent } from "../protocol";
import { isJsonObject } from "../stream/simple-event-check";
import { OutboxEntrySchema } from "./entry-schema";
import { TAB_PROTOCOL, TAB_PROTOCOL_VERSION, TabMessageType } from "./tab-protocol";

/*
 * What tabs of one origin and namespace tell each other, parsed once at the
 * boundary: anything that does not match is dropped, never thrown. A thread
 * event's `event` is only required to be an object here: the coordinator checks
 * it as the stream reader does (tab-coordinator.ts), by hand for a run's ordinary
 * events and with the AG-UI schemas, loaded on demand, for any other.
 */
export { TAB_PROTOCOL, TAB_PROTOCOL_VERSION, TabMessageType } from "./tab-protocol";

/** Follower → leader requests; the follower never changes delivery state itself. */
export const TabRequestSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("retry-now"), key: z.string().check(z.minLength(1)) }),
  z.object({ kind: z.literal("retry-all") }),
  z.object({ kind: z.literal("resume-after-auth") }),
  /** A follower started a background run: the leader picks it up from storage and polls it. */
  z.object({ kind: z.literal("resume-background") }),
]);
export type TabRequest = z.infer<typeof TabRequestSchema>;

export const TabMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal(TabMessageType.entryChanged), entry: OutboxEntrySchema }),
  z.object({
    type: z.literal(TabMessageType.entryAdded),
    key: z.string().check(z.minLength(1)),
    /** The entry as written, for stores that are not shared between tabs (the memory fallback). */
    entry: OutboxEntrySchema,
  }),
  z.object({
    type: z.literal(TabMessageType.entriesRemoved),
    keys: z.array(z.string().check(z.minLength(1))),
  }),
  z.object({
    type: z.literal(TabMessageType.threadEvent),
    threadId: z.string().check(z.minLength(1)),
    /** Checked against the AG-UI event schema by the coordinator before anyone sees it. */
    event: z.custom<AgUiEvent>(isJsonObject),
  }),
  z.object({ type: z.literal(TabMessageType.entryAck), key: z.string().check(z.minLength(1)) }),
  z.object({ type: z.literal(TabMessageType.backgroundChanged) }),
  z.object({ type: z.literal(TabMessageType.leader), tabId: z.string().check(z.minLength(1)) }),
  z.object({ type: z.literal(TabMessageType.hello) }),
  z.object({ type: z.literal(TabMessageType.request), request: TabRequestSchema }),
]);

/**
 * Written by hand rather than inferred so that a plain `OutboxEntry` can be
 * broadcast (the parsed, loose shape carries an index signature an interface
 * lacks); the check below keeps the two in step.
 */
export type TabMessage =
  | { readonly type: typeof TabMessageType.entryChanged; readonly entry: OutboxEntry }
  | { readonly type: typeof TabMessageType.entryAdded; readonly key: string; readonly entry: OutboxEntry }
  | { readonly type: typeof TabMessageType.entriesRemoved; readonly keys: readonly string[] }
  | { readonly type: typeof TabMessageType.threadEvent; readonly threadId: string; readonly event: AgUiEvent }
  | { readonly type: typeof TabMessageType.entryAck; readonly key: string }
  | { readonly type: typeof TabMessageType.backgroundChanged }
  | { readonly type: typeof TabMessageType.leader; readonly tabId: string }
  | { readonly type: typeof TabMessageType.hello }
  | { readonly type: typeof TabMessageType.request; readonly request: TabRequest };
const parsedIsMessage = (message: z.infer<typeof TabMessageSchema>): TabMessage => message;
void parsedIsMessage;
/** One member of the union, by `type`. */
export type TabMessageOf<T extends TabMessageType> = Extract<TabMessage, { type: T }>;

/** What travels on the channel: the message, who sent it, and for which namespace. */
export const TabEnvelopeSchema = z.object({
  protocol: z.literal(TAB_PROTOCOL),
  version: z.literal(TAB_PROTOCOL_VERSION),
  from: z.string().check(z.minLength(1)),
  namespace: z.string().check(z.minLength(1)),
  message: TabMessageSchema,
});
export interface TabEnvelope {
  readonly protocol: typeof TAB_PROTOCOL;
  readonly version: typeof TAB_PROTOCOL_VERSION;
  /** The sending tab's id. */
  readonly from: string;
  readonly namespace: string;
  readonly message: TabMessage;
}

/** The envelope, or `undefined` for anything that is not one of ours in this version. */
export function parseTabEnvelope(data: unknown): TabEnvelope | undefined {
  const parsed = TabEnvelopeSchema.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}
