import type { ComponentType, ReactNode } from "react";
import type { ApprovalRendererProps, ApprovalRenderers } from "./approval-renderer";
import { DefaultApprovalCard } from "./default-approval-card";
import type { ThreadApproval } from "./thread-approval";
import { useApprovals } from "./use-approvals";
import { useOutboxContext } from "./use-outbox-client";

export interface ApprovalListProps {
  readonly threadId: string;
  /**
   * Cards by tool name, merged over the provider's `renderers` (these win).
   * @default the provider's `renderers`
   */
  readonly renderers?: ApprovalRenderers;
  /**
   * The card for tools without a renderer.
   * @default DefaultApprovalCard
   */
  readonly fallback?: ComponentType<ApprovalRendererProps>;
}

function DefaultRenderer(props: ApprovalRendererProps): ReactNode {
  return <DefaultApprovalCard threadId={props.threadId} interruptId={props.interruptId} />;
}

/** Picks the card for one question: the tool's renderer, else the fallback. */
export function rendererFor(
  approval: ThreadApproval,
  renderers: ApprovalRenderers,
  fallback: ComponentType<ApprovalRendererProps> = DefaultRenderer,
): ComponentType<ApprovalRendererProps> {
  const name = approval.toolName;
  return (name !== undefined && Object.hasOwn(renderers, name) ? renderers[name] : undefined) ?? fallback;
}

/** Every question of a thread, each in the card registered for its tool (as CopilotKit's per-action renders). */
export function ApprovalList(props: ApprovalListProps): ReactNode {
  const approvals = useApprovals(props.threadId);
  const context = useOutboxContext();
  const renderers = { ...context.renderers, ...props.renderers };
  return approvals.map((approval) => {
    const Card = rendererFor(approval, renderers, props.fallback);
    return (
      <Card
        key={approval.interruptId}
        threadId={props.threadId}
        interruptId={approval.interruptId}
        approval={approval}
      />
    );
  });
}
