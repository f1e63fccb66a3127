import type { OutboxEntry, PendingInterrupt, ProposedCall } from "@agui-outbox/core";

/** One question a thread shows a card for: open, answered, or both (answered again after "needs you"). */
export interface ThreadApproval {
  /** The interrupt id; also a stable React key. */
  readonly interruptId: string;
  readonly threadId: string;
  /** The open interrupt, while the thread lists it as pending. */
  readonly interrupt: PendingInterrupt | undefined;
  /** The newest answer to it in the outbox, if any. */
  readonly entry: OutboxEntry | undefined;
  /** The guarded tool call, when the thread's messages name it. */
  readonly proposed: ProposedCall | undefined;
  /** The tool's name (`proposed.name`): what a per-tool renderer is chosen by. */
  readonly toolName: string | undefined;
}
