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
import * as S from "../protocol/shape-check";

// An outbox entry from another tab (untrusted input), checked by hand as
// test/support/tab-message-spec.ts specifies; loose, so a newer app's fields pass through.

type DecisionOf<K extends Decision["kind"]> = Omit<Extract<Decision, { kind: K }>, "kind">;

const decision = S.variants(
  "kind",
  {
    approve: { editedArgs: S.optional(S.record), reason: S.optional(S.string) },
    reject: { reason: S.optional(S.string) },
    cancel: {},
  } satisfies { readonly [K in Decision["kind"]]: S.ShapeOf<DecisionOf<K>> },
  S.Rest.keep,
);

const question: S.ShapeOf<EntryQuestion> = {
  message: S.optional(S.string),
  toolName: S.optional(S.string),
  proposedArgs: S.optional(S.record),
  responseSchema: S.optional(S.record),
};

const batch: S.ShapeOf<EntryBatch> = { interruptIds: S.arrayOf(S.string), sendsWith: S.optional(S.string) };

const counters: S.ShapeOf<DeliveryCounters> = {
  serverFailures: S.count,
  reattachesWithoutProgress: S.count,
  budgetChecks: S.count,
  firstSentAt: S.nullable(S.number),
  failedReads: S.optional(S.count),
  nothingRan: S.optional(S.count),
};

const cursor: S.ShapeOf<EntryCursor> = { runId: S.string, lastSeq: S.count, acked: S.boolean };

const entryError: S.ShapeOf<EntryError> = {
  kind: S.string,
  code: S.optional(S.string),
  message: S.string,
  status: S.optional(S.number),
};

// As the server echoes it: unknown keys dropped, `payload` anything.
const recordedDecision: S.ShapeOf<RecordedDecision> = {
  interruptId: S.string,
  status: S.oneOf(["resolved", "cancelled"]),
  payload: S.optional(S.anyValue),
};

const entry: S.ShapeOf<OutboxEntry> = {
  key: S.nonEmptyString,
  namespace: S.nonEmptyString,
  threadId: S.nonEmptyString,
  interruptId: S.nonEmptyString,
  toolCallId: S.optional(S.string),
  question: S.optional(S.objectOf(question, S.Rest.keep)),
  runId: S.nonEmptyString,
  body: S.string,
  responseSchema: S.optional(S.anyValue),
  batch: S.optional(S.objectOf(batch, S.Rest.keep)),
  counters: S.optional(S.objectOf(counters, S.Rest.keep)),
  decision,
  state: S.oneOf(Object.values(EntryState)),
  attempts: S.count,
  nextAttemptAt: S.nullable(S.number),
  cursor: S.objectOf(cursor, S.Rest.keep),
  lastError: S.nullable(S.objectOf(entryError, S.Rest.keep)),
  verdictDetail: S.nullable(S.string),
  rule: S.optional(S.string),
  replayed: S.optional(S.boolean),
  recordedDecisions: S.optional(S.arrayOf(S.objectOf(recordedDecision, S.Rest.strip))),
  resentAt: S.optional(S.number),
  everSent: S.boolean,
  createdAt: S.number,
  updatedAt: S.number,
  revision: S.optional(S.count),
  expiresAt: S.number,
};

export const checkOutboxEntry = S.objectOf(entry, S.Rest.keep);
