import { batchProgress, type OutboxEntry } from "@agui-outbox/core";
import { type ReactNode, useMemo } from "react";
import { useStore } from "zustand";
import { describeVerdict, type VerdictDescription } from "./describe-verdict";
import { type UseApprovalResult, useApproval } from "./use-approval";
import { type ApprovalFormModel, useApprovalForm } from "./use-approval-form";
import { useOutboxClient } from "./use-outbox-client";
import { type CountdownClock, useRetryCountdown } from "./use-retry-countdown";

const NO_ARGS: Readonly<Record<string, unknown>> = {};
const NO_ENTRIES: readonly OutboxEntry[] = [];

/** Everything a card needs to render, whatever it looks like. */
export interface ApprovalCardModel {
  readonly threadId: string;
  readonly interruptId: string;
  readonly approval: UseApprovalResult;
  /** The argument editor generated from `responseSchema.properties.editedArgs`. */
  readonly form: ApprovalFormModel;
  /** Seconds until the next attempt while in `retry_wait`, else null. */
  readonly secondsLeft: number | null;
  /** The status sentence, or null before any answer. */
  readonly verdict: VerdictDescription | null;
  /**
   * True when the person can (again) answer: before any answer, and after a
   * "needs you" verdict while the question is still open.
   */
  readonly canAnswer: boolean;
  /** Validate, then approve with the edited arguments (if any changed). */
  approve(): Promise<void>;
  /** Reject, optionally saying why (sent where the schema declares `reason`, always kept and shown). */
  reject(reason?: string): Promise<void>;
}

export interface ApprovalCardProps {
  readonly threadId: string;
  readonly interruptId: string;
  /** Clock for the retry countdown (tests). */
  readonly clock?: CountdownClock;
  readonly children: (card: ApprovalCardModel) => ReactNode;
}

/** Headless approval card: state, actions and a form model, rendered by `children`. */
export function ApprovalCard(props: ApprovalCardProps): ReactNode {
  const card = useApprovalCard(props.threadId, props.interruptId, props.clock);
  return props.children(card);
}

/** The hook behind `ApprovalCard`, for apps that prefer hooks to render props. */
export function useApprovalCard(
  threadId: string,
  interruptId: string,
  clock?: CountdownClock,
): ApprovalCardModel {
  const approval = useApproval(threadId, interruptId);
  const client = useOutboxClient();
  const serverKind = useStore(client.connection, (state) => state.serverKind);
  const online = useStore(client.connection, (state) => state.online);
  const kept = approval.entry?.state === "needs_user" ? approval.entry.decision : undefined;
  const keptArgs = kept?.kind === "approve" ? kept.editedArgs : undefined;
  const proposedArgs = approval.proposed?.args ?? NO_ARGS;
  // Answering again after "needs you" starts from the kept edits, not the proposal.
  const startArgs = useMemo(
    () => (keptArgs ? { ...proposedArgs, ...keptArgs } : proposedArgs),
    [proposedArgs, keptArgs],
  );
  const form = useApprovalForm(approval.responseSchema, proposedArgs, startArgs);
  const secondsLeft = useRetryCountdown(
    approval.state === "retry_wait" ? approval.nextAttemptAt : null,
    clock,
  );
  // Only an answer held for the run's other questions reads the other entries.
  const entries = useStore(useOutboxClient().outbox, (state) =>
    approval.entry?.batch ? state.entries : NO_ENTRIES,
  );
  const batch = approval.entry ? batchProgress(entries, approval.entry) : undefined;
  const verdict = approval.entry
    ? describeVerdict(approval.entry, {
        secondsLeft,
        serverKind,
        online,
        ...(batch ? { batch } : {}),
      })
    : null;
  return {
    threadId,
    interruptId,
    approval,
    form,
    secondsLeft,
    verdict,
    canAnswer: approval.state === "unanswered" || (approval.state === "needs_user" && approval.interruptOpen),
    async approve() {
      if (!form.valid) {
        form.showAllErrors();
        return;
      }
      await approval.answer({ approved: true, ...(form.editedArgs ? { editedArgs: form.editedArgs } : {}) });
    },
    async reject(reason?: string) {
      await approval.answer({ approved: false, ...(reason ? { reason } : {}) });
    },
  };
}
