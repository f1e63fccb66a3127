import * as z from "zod/mini";
import type { AgUiEvent } from "../protocol";
import { isJsonObject } from "../stream/simple-event-check";
import { OutboxEntrySchema } from "./entry-schema";
import type { TabEnvelope, TabMessage, TabRequest } from "./tab-message";
import { TAB_PROTOCOL, TAB_PROTOCOL_VERSION, TabMessageType } from "./tab-protocol";

/*
 * What tabs tell each other, as zod/mini schemas: the specification of the
 * messages. The page never loads these: parseTabEnvelope (tab-message.ts)
 * checks each message by hand, and tab-message-check.test.ts holds that check
 * to these schemas (the same values accepted, the same output). A thread message's
 * `events` are only required to be objects here: the coordinator checks it as
 * the stream reader does (tab-coordinator.ts).
 */

/** Follower → leader requests; the follower never changes delivery state itself. */
export const TabRequestSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("retry-now"), key: z.string().check(z.minLength(1)) }),
  z.object({ kind: z.literal("retry-all") }),
  z.object({ kind: z.literal("resume-after-auth") }),
  /** A follower started a background run: the leader picks it up from storage and polls it. */
  z.object({ kind: z.literal("resume-background") }),
]);

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
    type: z.literal(TabMessageType.threadEvents),
    threadId: z.string().check(z.minLength(1)),
    /** Checked against the AG-UI event schema by the coordinator before anyone sees them. */
    events: z.array(z.custom<AgUiEvent>(isJsonObject)),
  }),
  z.object({ type: z.literal(TabMessageType.entryAck), key: z.string().check(z.minLength(1)) }),
  z.object({ type: z.literal(TabMessageType.backgroundChanged) }),
  z.object({ type: z.literal(TabMessageType.leader), tabId: z.string().check(z.minLength(1)) }),
  z.object({ type: z.literal(TabMessageType.hello) }),
  z.object({ type: z.literal(TabMessageType.here) }),
  z.object({ type: z.literal(TabMessageType.bye) }),
  z.object({ type: z.literal(TabMessageType.request), request: TabRequestSchema }),
]);

/** What travels on the channel: the message, who sent it, and for which namespace. */
export const TabEnvelopeSchema = z.object({
  protocol: z.literal(TAB_PROTOCOL),
  version: z.literal(TAB_PROTOCOL_VERSION),
  from: z.string().check(z.minLength(1)),
  namespace: z.string().check(z.minLength(1)),
  message: TabMessageSchema,
});

// Compile-time drift checks: the hand-written types of tab-message.ts and these
// schemas' outputs stay in step (a request both ways; a message and an envelope
// as parsed are what the coordinator takes).
const parsedIsRequest = (request: z.infer<typeof TabRequestSchema>): TabRequest => request;
const requestIsParsed = (request: TabRequest): z.infer<typeof TabRequestSchema> => request;
const parsedIsMessage = (message: z.infer<typeof TabMessageSchema>): TabMessage => message;
const parsedIsEnvelope = (envelope: z.infer<typeof TabEnvelopeSchema>): TabEnvelope => envelope;
void parsedIsRequest;
void requestIsParsed;
void parsedIsMessage;
void parsedIsEnvelope;
