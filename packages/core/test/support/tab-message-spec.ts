import * as z from "zod/mini";
import { EntryState, type OutboxEntry } from "../../src/outbox/entry";
import type { AgUiEvent } from "../../src/protocol";
import { RecordedDecisionSchema } from "../../src/protocol/extension-schemas";
import { isJsonObject } from "../../src/stream/simple-event-check";
import {
  TAB_PROTOCOL,
  TAB_PROTOCOL_VERSION,
  type TabEnvelope,
  type TabMessage,
  TabMessageType,
  type TabRequest,
} from "../../src/tabs/tab-message";

/*
 * What tabs tell each other, as zod schemas: the specification the page's
 * hand-written check (tabs/tab-message.ts, tabs/entry-check.ts) is held to by
 * tabs/tab-message-check.test.ts. Entry objects are loose: a newer app's fields
 * pass through. The page never loads these.
 */

const DecisionSchema = z.discriminatedUnion("kind", [
  z.looseObject({
    kind: z.literal("approve"),
    editedArgs: z.exactOptional(z.record(z.string(), z.unknown())),
    reason: z.exactOptional(z.string()),
  }),
  z.looseObject({ kind: z.literal("reject"), reason: z.exactOptional(z.string()) }),
  z.looseObject({ kind: z.literal("cancel") }),
]);

const EntryCursorSchema = z.looseObject({
  runId: z.string(),
  lastSeq: z.int().check(z.nonnegative()),
  acked: z.boolean(),
});

const EntryErrorSchema = z.looseObject({
  kind: z.string(),
  code: z.exactOptional(z.string()),
  message: z.string(),
  status: z.exactOptional(z.number()),
});

const EntryQuestionSchema = z.looseObject({
  message: z.exactOptional(z.string()),
  toolName: z.exactOptional(z.string()),
  proposedArgs: z.exactOptional(z.record(z.string(), z.unknown())),
  responseSchema: z.exactOptional(z.record(z.string(), z.unknown())),
});

const DeliveryCountersSchema = z.looseObject({
  serverFailures: z.int().check(z.nonnegative()),
  reattachesWithoutProgress: z.int().check(z.nonnegative()),
  budgetChecks: z.int().check(z.nonnegative()),
  firstSentAt: z.nullable(z.number()),
  failedReads: z.exactOptional(z.int().check(z.nonnegative())),
  nothingRan: z.exactOptional(z.int().check(z.nonnegative())),
});

const EntryBatchSchema = z.looseObject({
  interruptIds: z.array(z.string()),
  sendsWith: z.exactOptional(z.string()),
});

export const OutboxEntrySchema = z.looseObject({
  key: z.string().check(z.minLength(1)),
  namespace: z.string().check(z.minLength(1)),
  threadId: z.string().check(z.minLength(1)),
  interruptId: z.string().check(z.minLength(1)),
  toolCallId: z.exactOptional(z.string()),
  question: z.exactOptional(EntryQuestionSchema),
  runId: z.string().check(z.minLength(1)),
  body: z.string(),
  responseSchema: z.exactOptional(z.unknown()),
  batch: z.exactOptional(EntryBatchSchema),
  counters: z.exactOptional(DeliveryCountersSchema),
  decision: DecisionSchema,
  state: z.enum(EntryState),
  attempts: z.int().check(z.nonnegative()),
  nextAttemptAt: z.nullable(z.number()),
  cursor: EntryCursorSchema,
  lastError: z.nullable(EntryErrorSchema),
  verdictDetail: z.nullable(z.string()),
  rule: z.exactOptional(z.string()),
  replayed: z.exactOptional(z.boolean()),
  recordedDecisions: z.exactOptional(z.array(RecordedDecisionSchema)),
  resentAt: z.exactOptional(z.number()),
  everSent: z.boolean(),
  createdAt: z.number(),
  updatedAt: z.number(),
  revision: z.exactOptional(z.int().check(z.nonnegative())),
  expiresAt: z.number(),
});

// Compile-time drift checks: a field added to `OutboxEntry` without a schema
// entry, or a schema whose output is not an `OutboxEntry`, fails the type check.
type MissingFields = Exclude<keyof OutboxEntry, keyof typeof OutboxEntrySchema.shape>;
const everyFieldCovered: [MissingFields] extends [never] ? true : MissingFields = true;
const parsedIsEntry = (entry: z.infer<typeof OutboxEntrySchema>): OutboxEntry => entry;
void everyFieldCovered;
void parsedIsEntry;

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
