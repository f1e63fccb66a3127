// The public API of @agui-outbox/core. Wire types live under the `./protocol` subpath.

export {
  type AnswerCheck,
  type AnswerValidator,
  type AnswerViolation,
  InvalidAnswerError,
} from "./answer/answer-check";
export { loadAnswerValidator } from "./answer/answer-validator";
export { ApprovalObserver, type ApprovalObserverOptions } from "./approval/approval-observer";
export { ApprovalPhase, approvalPhase, isPausedEntry } from "./approval/approval-phase";
export type { ApprovalAnswer, ApprovalResult, ApprovalState } from "./approval/approval-result";
export { findProposedCall, type ProposedCall } from "./approval/proposed-call";
// checkAnswer itself is in "@agui-outbox/core/validator": the JSON-Schema validator is
// loaded on demand (loadAnswerValidator), and a static re-export here would keep it in
// the initial chunk of some bundlers even when unused.
export {
  type AnswerInput,
  createOutboxClient,
  type OutboxClient,
  type OutboxClientOptions,
  sameDecision,
  type ThreadHandle,
} from "./client/create-outbox-client";
export { defaultDeps, type FetchLike, type OutboxDeps, type Signal, type Timers } from "./client/deps";
export { type EntryEvent, watchEntries } from "./client/entry-events";
export type { ConnectionState, LinkState, OutboxState } from "./client/outbox-state";
export type { OutboxPlugin, PluginContext, PluginHooks } from "./client/plugins";
export { unshownQuestions } from "./client/unshown-questions";
export { ErrorKind, isOutboxError, OutboxError, type OutboxErrorOptions } from "./errors/outbox-error";
export { type BatchProgress, batchProgress } from "./outbox/batch-progress";
export {
  type Decision,
  type DeliveryCounters,
  type EntryBatch,
  type EntryCursor,
  type EntryError,
  EntryState,
  FINAL_STATES,
  isFinalState,
  type OutboxEntry,
} from "./outbox/entry";
export type { EntryQuestion } from "./outbox/entry-question";
export {
  DEFAULT_OUTBOX_DB_NAME,
  IdbStore,
  type IdbStoreOptions,
  OUTBOX_DB_VERSION,
} from "./outbox/idb-store";
export { MemoryStore } from "./outbox/memory-store";
export { type OpenedOutboxStore, type OpenOutboxStoreOptions, openOutboxStore } from "./outbox/open-store";
export {
  type CommitResult,
  isSupersededByDefault,
  type OutboxStore,
  type PutIfAbsentOptions,
  type PutIfAbsentResult,
} from "./outbox/outbox-store";
export { DEFAULT_RETENTION_MS } from "./outbox/reducer";
export { FINAL_ENTRY_RETENTION_MS } from "./outbox/retention";
export { type DeliverySignal, ServerKind } from "./outcome/delivery-signal";
export { type Verdict, VerdictKind } from "./outcome/verdict";
export type { SealedEntry, SealingPlugin } from "./sealing/sealing-plugin";
export { PersistenceResult, requestPersistentStorage } from "./storage/request-persistence";
// The verdict table with its prose (VERDICT_TABLE, verdictTableMarkdown) is for docs,
// and the verdict function (classifyOutcome) loads with the code that sends: both
// are in "@agui-outbox/core/verdict-table". A re-export here would keep the rules in
// every page's first chunk (esbuild's code splitting keeps what an entry re-exports).
export type { ReadonlyStore } from "./thread/thread-registry";
export type { PendingInterrupt, RunState, ThreadState } from "./thread/thread-state";
export { isAbsentRoute } from "./transport/absent-route";
