import {
  type EntryError,
  EntryState,
  isFinalState,
  type OutboxEntry,
  type PendingInterrupt,
  unshownQuestions,
} from "@agui-outbox/core";
import { useCallback, useMemo, useRef, useState } from "react";
import { useStore } from "zustand";
import { type ApprovalPhase, approvalPhase, isPausedEntry } from "./approval-phase";
import { resendMessage } from "./describe-decision";
import { isReplayed } from "./describe-verdict";
import { findProposedCall, type ProposedCall } from "./proposed-call";
import { useOutboxClient } from "./use-outbox-client";
import { useVerdictCallbacks, type VerdictCallbacks } from "./use-verdict-callbacks";

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

/** Options of `useApproval`. */
export type UseApprovalOptions = VerdictCallbacks;

export interface UseApprovalResult {
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
   * Approve (optionally with edited arguments) or reject (optionally with a
   * reason). One answer per interrupt: a call while the first is being written
   * returns the first's promise, and once written the entry stands. Resolves
   * with the entry once it is durable, or undefined when it could not be
   * written (then `error` says why). The positional form
   * `answer(approved, editedArgs?)` still works.
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
  /**
   * For a lost answer: send the kept decision to the agent as a user message
   * that says the outcome is unknown. The agent may act on it, so the tool may
   * run again; the entry stays (marked `resent`) until the person dismisses it.
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
export function useApproval(
  threadId: string,
  interruptId: string,
  options: UseApprovalOptions = {},
): UseApprovalResult {
  const client = useOutboxClient();
  const online = useStore(client.connection, (state) => state.online);
  const handle = useMemo(() => client.thread(threadId), [client, threadId]);
  // The client picks which answer this tab shows: its own, when two tabs answered.
  const entry = useStore(client.outbox, () => client.entryFor(threadId, interruptId));
  const live = useStore(handle.store, (state) =>
    state.pendingInterrupts.find((item) => item.id === interruptId),
  );
  // A question the server keeps open without showing it (an answer of a batch it did
  // not take): still answerable, so the card offers to answer it again.
  const keptOpen = useStore(
    client.outbox,
    (state) =>
      live === undefined &&
      unshownQuestions(state.entries, threadId, [], interruptId).some(
        (question) => question.id === interruptId,
      ),
  );
  const messages = useStore(handle.store, (state) => state.messages);
  // The thread drops an interrupt once its answer is final; the card still shows the question.
  const seen = useRef<PendingInterrupt | undefined>(undefined);
  if (live) seen.current = live;
  const interrupt = live ?? seen.current;
  // After a reload of a resolved thread the interrupt is gone; the entry still names the tool call.
  const toolCallId = interrupt?.toolCallId ?? entry?.toolCallId;
  // The question travels with the answer: after a reload, in another tab or for a
  // thread that no longer holds the tool call, the entry's copy stands in.
  const kept = entry?.question;
  const proposed = useMemo(
    () =>
      findProposedCall(messages, toolCallId) ??
      (kept?.toolName ? { name: kept.toolName, args: kept.proposedArgs ?? {} } : undefined),
    [messages, toolCallId, kept],
  );
  const responseSchema =
    (interrupt?.responseSchema as Readonly<Record<string, unknown>> | undefined) ?? kept?.responseSchema;

  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  // A ref, not state: two clicks in one frame both see the state of the first render.
  const inFlight = useRef<Promise<OutboxEntry> | null>(null);

  /** Writes once: a second call while the first is being written gets the first's promise. */
  const writeAsync = useCallback((make: () => Promise<OutboxEntry>): Promise<OutboxEntry> => {
    if (inFlight.current) return inFlight.current;
    setSubmitting(true);
    setError(null);
    const written = make().finally(() => {
      inFlight.current = null;
      setSubmitting(false);
    });
    inFlight.current = written;
    written.catch((caught: unknown) => setError(asError(caught)));
    return written;
  }, []);
  const write = useCallback(
    (make: () => Promise<OutboxEntry>): Promise<OutboxEntry | undefined> =>
      // The failure is already in `error` (set by writeAsync): this variant never throws.
      writeAsync(make).catch(() => undefined),
    [writeAsync],
  );

  const answered = entry !== undefined && !isFinalState(entry.state);
  const answerAsync = useCallback(
    (input: ApprovalAnswer): Promise<OutboxEntry> => {
      if (answered && entry) return Promise.resolve(entry);
      return writeAsync(() =>
        client.answer(
          input.approved
            ? {
                threadId,
                interruptId,
                approved: true,
                ...(input.editedArgs ? { editedArgs: input.editedArgs } : {}),
                ...(input.reason ? { reason: input.reason } : {}),
              }
            : { threadId, interruptId, approved: false, ...(input.reason ? { reason: input.reason } : {}) },
        ),
      );
    },
    [answered, entry, writeAsync, client, threadId, interruptId],
  );
  const answer = useCallback(
    // `error` holds the failure; answerAsync is the variant that throws.
    (input: ApprovalAnswer | boolean, editedArgs?: Readonly<Record<string, unknown>>) =>
      answerAsync(
        typeof input === "boolean" ? { approved: input, ...(editedArgs ? { editedArgs } : {}) } : input,
      ).catch(() => undefined),
    [answerAsync],
  ) as UseApprovalResult["answer"];
  const cancel = useCallback(() => {
    if (answered) return Promise.resolve(entry);
    return write(() => client.answer({ threadId, interruptId, cancelled: true }));
  }, [answered, entry, write, client, threadId, interruptId]);
  useVerdictCallbacks(entry, error, options);

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
  const question = interrupt?.message ?? kept?.message;
  const resendAsMessage = useCallback(
    () =>
      act(async () => {
        if (!entry || entry.state !== EntryState.lost) return;
        // Kept until dismissed, marked on the entry (a reload or another tab offers it no more).
        await client.resendAsMessage(entry.key, resendMessage(entry.decision, question));
      }),
    [act, entry, client, question],
  );

  return {
    interrupt,
    interruptOpen: live !== undefined || keptOpen,
    proposed,
    question,
    responseSchema,
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
    phase: approvalPhase(entry, submitting),
    isPaused: isPausedEntry(entry, online),
    resent: entry?.resentAt !== undefined,
    answer,
    answerAsync,
    cancel,
    retryNow,
    discard,
    resendAsMessage,
  };
}
