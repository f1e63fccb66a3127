import {
  type Decision,
  type DeliveryCounters,
  type EntryBatch,
  type EntryCursor,
  type EntryError,
  EntryState,
  type OutboxEntry,
} from "../outbox/entry";
import type { EntryQuestion } from "../outbox/entry-question";
import type { RecordedDecision } from "../protocol/extensions";
import {
  anyValue,
  arrayOf,
  boolean,
  count,
  nonEmptyString,
  nullable,
  number,
  objectOf,
  oneOf,
  optional,
  Rest,
  record,
  type ShapeOf,
  string,
  variants,
} from "../protocol/shape-check";

/*
 * An outbox entry as another tab sends it, checked exactly as OutboxEntrySchema
 * (entry-schema.ts) parses it, by hand: messages from other tabs are untrusted
 * input (another version of the app, a bug, a hostile script on the origin), so
 * an entry is checked before it can reach the delivery engine. Objects are
 * loose, as the schema's are: a field added to `OutboxEntry` by a newer version
 * of the app passes through instead of being stripped from the mirrored copy.
 */

type DecisionOf<K extends Decision["kind"]> = Omit<Extract<Decision, { kind: K }>, "kind">;

const decision = variants(
  "kind",
  {
    approve: { editedArgs: optional(record), reason: optional(string) },
    reject: { reason: optional(string) },
    cancel: {},
  } satisfies { readonly [K in Decision["kind"]]: ShapeOf<DecisionOf<K>> },
  Rest.keep,
);

const question: ShapeOf<EntryQuestion> = {
  message: optional(string),
  toolName: optional(string),
  proposedArgs: optional(record),
  responseSchema: optional(record),
};

const batch: ShapeOf<EntryBatch> = { interruptIds: arrayOf(string), sendsWith: optional(string) };

const counters: ShapeOf<DeliveryCounters> = {
  serverFailures: count,
  reattachesWithoutProgress: count,
  budgetChecks: count,
  firstSentAt: nullable(number),
  failedReads: optional(count),
  nothingRan: optional(count),
};

const cursor: ShapeOf<EntryCursor> = { runId: string, lastSeq: count, acked: boolean };

const entryError: ShapeOf<EntryError> = {
  kind: string,
  code: optional(string),
  message: string,
  status: optional(number),
};

/** As the server echoes it (`z.object`: unknown keys are dropped); `payload` may hold anything, `undefined` too. */
const recordedDecision: ShapeOf<RecordedDecision> = {
  interruptId: string,
  status: oneOf(["resolved", "cancelled"]),
  payload: optional(anyValue),
};

const entry: ShapeOf<OutboxEntry> = {
  key: nonEmptyString,
  namespace: nonEmptyString,
  threadId: nonEmptyString,
  interruptId: nonEmptyString,
  toolCallId: optional(string),
  question: optional(objectOf(question, Rest.keep)),
  runId: nonEmptyString,
  body: string,
  responseSchema: optional(anyValue),
  batch: optional(objectOf(batch, Rest.keep)),
  counters: optional(objectOf(counters, Rest.keep)),
  decision,
  state: oneOf(Object.values(EntryState)),
  attempts: count,
  nextAttemptAt: nullable(number),
  cursor: objectOf(cursor, Rest.keep),
  lastError: nullable(objectOf(entryError, Rest.keep)),
  verdictDetail: nullable(string),
  rule: optional(string),
  replayed: optional(boolean),
  recordedDecisions: optional(arrayOf(objectOf(recordedDecision, Rest.strip))),
  resentAt: optional(number),
  everSent: boolean,
  createdAt: number,
  updatedAt: number,
  revision: optional(count),
  expiresAt: number,
};

/** An `OutboxEntry` as the schema outputs it (a copy, unknown keys kept), or `INVALID`. */
export const checkOutboxEntry = objectOf(entry, Rest.keep);
