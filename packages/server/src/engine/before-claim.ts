import type { RunAgentInput } from "@agui-outbox/core/protocol";

/** What a resume is about to claim, for {@link BeforeClaim}. */
export interface ClaimContext {
  readonly input: RunAgentInput;
  readonly threadId: string;
  readonly runId: string;
  readonly idempotencyKey: string;
  /** The batch's interrupts, all of which the claim would take. */
  readonly interruptIds: readonly string[];
}

/** Refuse the claim: the request ends with this `RUN_ERROR`, nothing is claimed. */
export interface ClaimRefusal {
  readonly refuse: { readonly code: string; readonly message: string };
}

/**
 * A gate in front of every claim: a tool's dependency is down, a quota is
 * spent, or a test injects a fault. Returning nothing lets the claim go on.
 */
export type BeforeClaim = (
  context: ClaimContext,
) => ClaimRefusal | undefined | Promise<ClaimRefusal | undefined>;
