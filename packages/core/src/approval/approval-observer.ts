import type { OutboxClient, ThreadHandle } from "../client/client-types";
import { unshownQuestions } from "../client/unshown-questions";
import { type Decision, EntryState, isFinalState, type OutboxEntry } from "../outbox/entry";
import type { EntryQuestion } from "../outbox/entry-question";
import type { Message } from "../protocol";
import type { PendingInterrupt } from "../thread/thread-state";
import { approvalPhase, isPausedEntry } from "./approval-phase";
import type { ApprovalAnswer, ApprovalResult } from "./approval-result";
import { findProposedCall, type ProposedCall } from "./proposed-call";

export interface ApprovalObserverOptions {
  readonly threadId: string;
  readonly interruptId: string;
  /** The words `resendAsMessage()` posts: the binding's, as is every text a person reads. */
  readonly resendText: (decision: Decision, question: string | undefined) => string;
}

type Actions = "answer" | "answerAsync" | "cancel" | "retryNow" | "discard" | "resendAsMessage";
type Fields = Omit<ApprovalResult, Actions>;

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * One interrupt's answer, framework-free, in the grain of TanStack Query's `MutationObserver`:
 * `subscribe` and `getSnapshot` for `useSyncExternalStore`. The snapshot stays the same object
 * until a field changes; it holds what only one card knows (the answer being written, the last
 * error, the question after the thread dropped it).
 */
export class ApprovalObserver {
  readonly #client: OutboxClient;
  readonly #options: ApprovalObserverOptions;
  readonly #thread: ThreadHandle;
  readonly #listeners = new Set<() => void>();
  #unsubscribe: (() => void) | undefined;
  #result: ApprovalResult | undefined;
  #submitting = false;
  #error: Error | null = null;
  #inFlight: Promise<OutboxEntry> | null = null;
  /** The interrupt as last listed: the thread drops it once answered, the card still asks it. */
  #seen: PendingInterrupt | undefined;
  #proposed: { readonly from: readonly unknown[]; readonly call: ProposedCall | undefined } | undefined;

  constructor(client: OutboxClient, options: ApprovalObserverOptions) {
    this.#client = client;
    this.#options = options;
    this.#thread = client.thread(options.threadId);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    if (!this.#unsubscribe) {
      const update = () => this.#update();
      const stops = [
        this.#client.outbox.subscribe(update),
        this.#thread.store.subscribe(update),
        this.#client.connection.subscribe(update),
      ];
      this.#unsubscribe = () => {
        for (const stop of stops) stop();
      };
      update();
    }
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size > 0) return;
      this.#unsubscribe?.();
      this.#unsubscribe = undefined;
    };
  };

  getSnapshot = (): ApprovalResult => {
    // Unsubscribed, no store keeps the snapshot current: read now.
    if (!this.#unsubscribe || !this.#result) this.#result = this.#next();
    return this.#result;
  };

  answerAsync = (input: ApprovalAnswer): Promise<OutboxEntry> => {
    const { threadId, interruptId } = this.#options;
    const { entry } = this.getSnapshot();
    // One answer per interrupt: once written, the entry stands until its verdict.
    if (entry && !isFinalState(entry.state)) return Promise.resolve(entry);
    const reason = input.reason ? { reason: input.reason } : {};
    return this.#write(() =>
      this.#client.answer(
        input.approved
          ? {
              threadId,
              interruptId,
              approved: true,
              ...(input.editedArgs ? { editedArgs: input.editedArgs } : {}),
              ...reason,
            }
          : { threadId, interruptId, approved: false, ...reason },
      ),
    );
  };

  answer = ((input: ApprovalAnswer | boolean, editedArgs?: Readonly<Record<string, unknown>>) =>
    this.answerAsync(
      typeof input === "boolean" ? { approved: input, ...(editedArgs ? { editedArgs } : {}) } : input,
    ).catch(() => undefined)) as ApprovalResult["answer"];

  cancel = (): Promise<OutboxEntry | undefined> => {
    const { threadId, interruptId } = this.#options;
    const { entry } = this.getSnapshot();
    if (entry && !isFinalState(entry.state)) return Promise.resolve(entry);
    return this.#write(() => this.#client.answer({ threadId, interruptId, cancelled: true })).catch(
      () => undefined,
    );
  };

  retryNow = (): Promise<void> =>
    this.#act(async (entry) => {
      if (entry) await this.#client.retryNow(entry.key);
    });

  discard = (): Promise<void> =>
    this.#act(async (entry) => {
      if (entry) await this.#client.discard(entry.key);
    });

  resendAsMessage = (): Promise<void> =>
    this.#act(async (entry, question) => {
      if (!entry || entry.state !== EntryState.lost) return;
      // Kept until dismissed, marked on the entry (a reload or another tab offers it no more).
      await this.#client.resendAsMessage(entry.key, this.#options.resendText(entry.decision, question));
    });

  /** Writes once: a second call while the first is being written gets the first's promise. */
  #write(make: () => Promise<OutboxEntry>): Promise<OutboxEntry> {
    if (this.#inFlight) return this.#inFlight;
    this.#submitting = true;
    this.#error = null;
    this.#update();
    const written = make();
    this.#inFlight = written;
    // Settled before the caller's own continuation runs (registered first).
    written.then(
      () => this.#settle(null),
      (caught: unknown) => this.#settle(asError(caught)),
    );
    return written;
  }

  #settle(error: Error | null): void {
    this.#inFlight = null;
    this.#submitting = false;
    this.#error = error;
    this.#update();
  }

  async #act(action: (entry: OutboxEntry | undefined, question: string | undefined) => Promise<void>) {
    this.#error = null;
    this.#update();
    const { entry, question } = this.getSnapshot();
    try {
      await action(entry, question);
    } catch (caught) {
      this.#error = asError(caught);
      this.#update();
    }
  }

  #update(): void {
    const next = this.#next();
    if (next === this.#result) return;
    this.#result = next;
    for (const listener of this.#listeners) listener();
  }

  #next(): ApprovalResult {
    const { threadId, interruptId } = this.#options;
    const { entries } = this.#client.outbox.getState();
    const thread = this.#thread.store.getState();
    // The client picks which answer this tab shows: its own, when two tabs answered.
    const entry = this.#client.entryFor(threadId, interruptId, entries);
    const live = thread.pendingInterrupts.find((item) => item.id === interruptId);
    if (live) this.#seen = live;
    const interrupt = live ?? this.#seen;
    // A question the server keeps open without showing it (an answer of a batch it
    // did not take): still answerable, so the card offers to answer it again.
    const keptOpen =
      live === undefined &&
      unshownQuestions(entries, threadId, [], interruptId).some((question) => question.id === interruptId);
    // The entry's copy of the question stands in after a reload, in another tab, or once the thread drops it.
    const kept = entry?.question;
    const fields: Fields = {
      interrupt,
      interruptOpen: live !== undefined || keptOpen,
      proposed: this.#proposedCall(thread.messages, interrupt?.toolCallId ?? entry?.toolCallId, kept),
      question: interrupt?.message ?? kept?.message,
      responseSchema:
        (interrupt?.responseSchema as Readonly<Record<string, unknown>> | undefined) ?? kept?.responseSchema,
      entry,
      state: entry?.state ?? "unanswered",
      final: entry ? isFinalState(entry.state) : false,
      replayed: entry?.state === EntryState.applied && entry.replayed === true,
      attempts: entry?.attempts ?? 0,
      nextAttemptAt: entry?.nextAttemptAt ?? null,
      lastError: entry?.lastError ?? null,
      verdictDetail: entry?.verdictDetail ?? null,
      submitting: this.#submitting,
      error: this.#error,
      phase: approvalPhase(entry, this.#submitting),
      isPaused: isPausedEntry(entry, this.#client.connection.getState().online),
      resent: entry?.resentAt !== undefined,
    };
    const current = this.#result;
    const same = (key: keyof Fields) => current !== undefined && Object.is(fields[key], current[key]);
    if ((Object.keys(fields) as (keyof Fields)[]).every(same) && current) return current;
    const { answer, answerAsync, cancel, retryNow, discard, resendAsMessage } = this;
    return { ...fields, answer, answerAsync, cancel, retryNow, discard, resendAsMessage };
  }

  /** The guarded tool call: from the thread's messages, else the one kept with the answer. */
  #proposedCall(
    messages: readonly Message[],
    toolCallId: string | undefined,
    kept: EntryQuestion | undefined,
  ): ProposedCall | undefined {
    const from = [messages, toolCallId, kept];
    if (this.#proposed?.from.every((part, i) => part === from[i])) return this.#proposed.call;
    const call =
      findProposedCall(messages, toolCallId) ??
      (kept?.toolName ? { name: kept.toolName, args: kept.proposedArgs ?? {} } : undefined);
    this.#proposed = { from, call };
    return call;
  }
}
