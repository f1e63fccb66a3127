import type { ComponentType } from "react";
import type { ThreadApproval } from "./thread-approval";

// The shape of a per-tool card, apart from the list that renders it: the
// provider's context holds renderers, and the list reads that context.

/** What a per-tool card is given: the same props as `DefaultApprovalCard`, plus the question. */
export interface ApprovalRendererProps {
  readonly threadId: string;
  readonly interruptId: string;
  readonly approval: ThreadApproval;
}

/** Cards by tool name: `{ deploy_change: DeployCard }`. Tools without one get the default card. */
export type ApprovalRenderers = Readonly<Record<string, ComponentType<ApprovalRendererProps>>>;
