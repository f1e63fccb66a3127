// The public API of @agui-outbox/react. Styles: import "@agui-outbox/react/styles.css".

export { ApprovalPhase, approvalPhase, isPausedEntry, type ProposedCall } from "@agui-outbox/core";
export {
  ApprovalCard,
  type ApprovalCardModel,
  type ApprovalCardProps,
  useApprovalCard,
} from "./approval-card";
export {
  editedArgsSchema,
  FieldKind,
  type FieldValue,
  type FormErrors,
  type FormField,
  type FormValues,
  formFields,
} from "./approval-form";
export type { ApprovalRendererProps, ApprovalRenderers } from "./approval-renderer";
export { ApprovalList, type ApprovalListProps, rendererFor } from "./approval-renderers";
export { DefaultApprovalCard, type DefaultApprovalCardProps } from "./default-approval-card";
export { describeArgs, describeDecision, resendMessage } from "./describe-decision";
export { describeEntryError } from "./describe-error";
export {
  describeVerdict,
  isReplayed,
  type VerdictContext,
  type VerdictDescription,
  VerdictTone,
} from "./describe-verdict";
export { describeWaiting, type WaitingContext } from "./describe-waiting";
export { OutboxProvider, type OutboxProviderProps } from "./outbox-provider";
export type { ThreadApproval } from "./thread-approval";
export {
  type ApprovalAnswer,
  type ApprovalState,
  type UseApprovalOptions,
  type UseApprovalResult,
  useApproval,
} from "./use-approval";
export { type ApprovalFormModel, useApprovalForm } from "./use-approval-form";
export { useApprovals } from "./use-approvals";
export {
  type BackgroundRunsSource,
  type UseBackgroundRunsResult,
  useBackgroundRuns,
} from "./use-background-runs";
export { type Capabilities, useCapabilities } from "./use-capabilities";
export { useConnection } from "./use-connection";
export { useEntryEvents } from "./use-entry-events";
export { useOutbox } from "./use-outbox";
export { useOutboxClient } from "./use-outbox-client";
export { type CountdownClock, useRetryCountdown } from "./use-retry-countdown";
export { type UseThreadResult, useThread } from "./use-thread";
export type { VerdictCallbacks } from "./use-verdict-callbacks";
