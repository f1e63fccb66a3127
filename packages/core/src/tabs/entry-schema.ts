import * as z from "zod/mini";
import { EntryState, type OutboxEntry } from "../outbox/entry";
import { RecordedDecisionSchema } from "../protocol/extension-schemas";

/*
 * An outbox entry as another tab sends it. Messages from other tabs are
 * untrusted input (another version of the app, a bug, a hostile script on the
 * origin), so an entry is parsed before it can reach the delivery engine.
 *
 * Objects are loose: a field added to `OutboxEntry` by a newer version of the
 * app passes through instead of being stripped from the mirrored copy.
 *
 * The specification: the page checks entries by hand (entry-check.ts), exactly
 * as this schema parses them, and never loads it; tab-message-check.test.ts
 * holds the check to it.
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
