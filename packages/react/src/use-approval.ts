import { ApprovalObserver, type ApprovalResult } from "@agui-outbox/core";
import { useMemo, useSyncExternalStore } from "react";
import { resendMessage } from "./describe-decision";
import { useOutboxClient } from "./use-outbox-client";
import { useVerdictCallbacks, type VerdictCallbacks } from "./use-verdict-callbacks";

export type { ApprovalAnswer, ApprovalState } from "@agui-outbox/core";

/** Options of `useApproval`. */
export type UseApprovalOptions = VerdictCallbacks;

/** What `useApproval` returns: the core `ApprovalObserver`'s snapshot. */
export type UseApprovalResult = ApprovalResult;

/**
 * One interrupt's answer: what was decided, where its delivery stands, and
 * the actions the person can take at each state. A binding of the core's
 * `ApprovalObserver`, which holds the logic (TanStack Query's `useMutation` over
 * its `MutationObserver`).
 */
export function useApproval(
  threadId: string,
  interruptId: string,
  options: UseApprovalOptions = {},
): UseApprovalResult {
  const client = useOutboxClient();
  // One observer per question: a card that shows another interrupt starts afresh.
  const observer = useMemo(
    () => new ApprovalObserver(client, { threadId, interruptId, resendText: resendMessage }),
    [client, threadId, interruptId],
  );
  const result = useSyncExternalStore(observer.subscribe, observer.getSnapshot, observer.getSnapshot);
  useVerdictCallbacks(result.entry, result.error, options);
  return result;
}
