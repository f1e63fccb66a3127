import type { EntryError, EntryState, OutboxEntry } from "../outbox/entry";
import type { PendingInterrupt } from "../thread/thread-state";
import type { ApprovalPhase } from "./approval-phase";
import type { ProposedCall } from "./proposed-call";

/** `unanswered` until an answer is written; then the outbox entry's state. */
export type ApprovalState = EntryState | "unanswered";

/** One answer, named by its parts (`answer({ approved: false, reason: "not today" })`). */
export interface ApprovalAnswer {
  readonly approved: boolean;
  /** The arguments the person changed (approvals only); omit when nothing changed. */
  readonly editedArgs?: Readonly<Record<string, unknown>>;
  /** Why (rejections): sent where the interrupt's schema has a place for it, kept with the entry always. */
  readonly reason?: string;
}

/** One interrupt's answer as an `ApprovalObserver` sees it: a snapshot, the same object until something changes. */
export interface ApprovalResult {
  /** The open interrupt (kept after the thread drops it, for the card's question). */
  readonly interrupt: PendingInterrupt | undefined;
  /** True while the thread lists the interrupt as pending, or the server keeps it open unshown (an answer of a batch it did not take). */
  readonly interruptOpen: boolean;
  /** The tool call the interrupt guards, with its proposed arguments. */
  readonly proposed: ProposedCall | undefined;
  /** What the person is (or was) asked: the interrupt's message, else the one kept with the answer. */
  readonly question: string | undefined;
  /** The interrupt's `responseSchema`, else the one kept with the answer. */
  readonly responseSchema: Readonly<Record<string, unknown>> | undefined;
  readonly entry: OutboxEntry | undefined;
  readonly state: ApprovalState;
  /** True once the entry has a final verdict. */
  readonly final: boolean;
  /** True for an applied verdict the server replayed from its record. */
  readonly replayed: boolean;
  readonly attempts: number;
  readonly nextAttemptAt: number | null;
  readonly lastError: EntryError | null;
  readonly verdictDetail: string | null;
  /** True while `answer()` or `cancel()` is writing the entry. */
  readonly submitting: boolean;
  /** Why the last `answer()`/`cancel()`/action call failed (nothing was enqueued when it is invalid_answer). */
  readonly error: Error | null;
  /** The coarse phase: idle, saving, sending, waiting, settled. */
  readonly phase: ApprovalPhase;
  /** True while the answer cannot move until the network is back or the person signs in again. */
  readonly isPaused: boolean;
  /** True once the kept answer was posted as a message, from any tab or page (the entry stays until dismissed). */
  readonly resent: boolean;
  /**
   * Approve (optionally with edited arguments) or reject (optionally with a reason). One answer
   * per interrupt: a second call while writing gets the first's promise. Resolves with the durable
   * entry, or undefined when unwritten (`error` says why). `answer(approved, editedArgs?)` still works.
   */
  answer(input: ApprovalAnswer): Promise<OutboxEntry | undefined>;
  answer(approved: boolean, editedArgs?: Readonly<Record<string, unknown>>): Promise<OutboxEntry | undefined>;
  /** Like `answer`, but rejects with the core's typed `OutboxError` (for example `invalid_answer`). */
  answerAsync(input: ApprovalAnswer): Promise<OutboxEntry>;
  /** Cancel the question instead of answering it. */
  cancel(): Promise<OutboxEntry | undefined>;
  /** Skip the rest of the backoff. */
  retryNow(): Promise<void>;
  /** Remove an entry with a final verdict (the card returns to unanswered if the question is still open). */
  discard(): Promise<void>;
  /** For a lost answer: post it as a message saying the outcome is unknown (the tool may run again). */
  resendAsMessage(): Promise<void>;
}
