import {
  type EntryError,
  EntryState,
  isFinalState,
  type OutboxEntry,
  type PendingInterrupt,
} from "@agui-outbox/core";
import { useCallback, useMemo, useRef, useState } from "react";
import { useStore } from "zustand";
import { resendMessage } from "./describe-decision";
import { isReplayed } from "./describe-verdict";
import { findProposedCall, type ProposedCall } from "./proposed-call";
import { useOutboxClient } from "./use-outbox-client";

/** `unanswered` until an answer is written; then the outbox entry's state. */
export type ApprovalState = EntryState | "unanswered";

export interface UseApprovalResult {
  /** The open interrupt (kept after the thread drops it, for the card's question). */
  readonly interrupt: PendingInterrupt | undefined;
  /** True while the thread lists the interrupt as pending. */
  readonly interruptOpen: boolean;
  /** The tool call the interrupt guards, with its proposed arguments. */
  readonly proposed: ProposedCall | undefined;
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
  /** Approve (optionally with edited arguments) or reject. One answer per interrupt: repeated calls are ignored. */
  answer(approved: boolean, editedArgs?: Readonly<Record<string, unknown>>): Promise<OutboxEntry | undefined>;
  /** Cancel the question instead of answering it. */
  cancel(): Promise<OutboxEntry | undefined>;
  /** Skip the rest of the backoff. */
  retryNow(): Promise<void>;
  /** Remove an entry with a final verdict (the card returns to unanswered if the question is still open). */
  discard(): Promise<void>;
  /**
   * For a lost answer: send the kept decision to the agent as a user message
   * that says the outcome is unknown, then discard the entry.
   */
  resendAsMessage(): Promise<void>;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * One interrupt's answer: what was decided, where its delivery stands, and
 * the actions the person can take at each state.
 */
export function useApproval(threadId: string, interruptId: string): UseApprovalResult {
  const client = useOutboxClient();
  const handle = useMemo(() => client.thread(threadId), [client, threadId]);
  // The client picks which answer this tab shows: its own, when two tabs answered.
  const entry = useStore(client.outbox, () => client.entryFor(threadId, interruptId));
  const live = useStore(handle.store, (state) =>
    state.pendingInterrupts.find((item) => item.id === interruptId),
  );
  const messages = useStore(handle.store, (state) => state.messages);
  // The thread drops an interrupt once its answer is final; the card still shows the question.
  const seen = useRef<PendingInterrupt | undefined>(undefined);
  if (live) seen.current = live;
  const interrupt = live ?? seen.current;
  // After a reload of a resolved thread the interrupt is gone; the entry still names the tool call.
  const toolCallId = interrupt?.toolCallId ?? entry?.toolCallId;
  const proposed = useMemo(() => findProposedCall(messages, toolCallId), [messages, toolCallId]);

  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  // A ref, not state: two clicks in one frame both see the state of the first render.
  const inFlight = useRef(false);

  const write = useCallback(async (make: () => Promise<OutboxEntry>): Promise<OutboxEntry | undefined> => {
    if (inFlight.current) return undefined;
    inFlight.current = true;
    setSubmitting(true);
    setError(null);
    try {
      return await make();
    } catch (caught) {
      setError(asError(caught));
      return undefined;
    } finally {
      inFlight.current = false;
      setSubmitting(false);
    }
  }, []);

  const answered = entry !== undefined && !isFinalState(entry.state);
  const answer = useCallback(
    (approved: boolean, editedArgs?: Readonly<Record<string, unknown>>) => {
      if (answered) return Promise.resolve(entry);
      return write(() =>
        client.answer(
          approved
            ? { threadId, interruptId, approved: true, ...(editedArgs ? { editedArgs } : {}) }
            : { threadId, interruptId, approved: false },
        ),
      );
    },
    [answered, entry, write, client, threadId, interruptId],
  );
  const cancel = useCallback(() => {
    if (answered) return Promise.resolve(entry);
    return write(() => client.answer({ threadId, interruptId, cancelled: true }));
  }, [answered, entry, write, client, threadId, interruptId]);

  const act = useCallback(async (action: () => Promise<void>) => {
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(asError(caught));
    }
  }, []);
  const key = entry?.key;
  const retryNow = useCallback(
    () =>
      act(async () => {
        if (key) await client.retryNow(key);
      }),
    [act, client, key],
  );
  const discard = useCallback(
    () =>
      act(async () => {
        if (key) await client.discard(key);
      }),
    [act, client, key],
  );
  const question = interrupt?.message;
  const resendAsMessage = useCallback(
    () =>
      act(async () => {
        if (!entry || entry.state !== EntryState.lost) return;
        await handle.send(resendMessage(entry.decision, question));
        await client.discard(entry.key);
      }),
    [act, entry, handle, question, client],
  );

  return {
    interrupt,
    interruptOpen: live !== undefined,
    proposed,
    entry,
    state: entry?.state ?? "unanswered",
    final: entry ? isFinalState(entry.state) : false,
    replayed: entry ? isReplayed(entry) : false,
    attempts: entry?.attempts ?? 0,
    nextAttemptAt: entry?.nextAttemptAt ?? null,
    lastError: entry?.lastError ?? null,
    verdictDetail: entry?.verdictDetail ?? null,
    submitting,
    error,
    answer,
    cancel,
    retryNow,
    discard,
    resendAsMessage,
  };
}
