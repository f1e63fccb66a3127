import { isKnownOutcomeCode, OutcomeCode, type RunAgentInput } from "@agui-outbox/core/protocol";
import type { ClaimedAnswer } from "./resume-verdict";

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
 * Runs once a resume's claim is written and acknowledged, before any tool:
 * throwing ends the run with a `RUN_ERROR` and rolls the claim back (nothing
 * ran). An error whose `code` is a contract code keeps it; any other is a
 * retryable UNAVAILABLE. For a dependency check that must hold the claim, and
 * for injecting a failure right after the claim.
 */
export type AfterClaim = (context: ClaimContext & { readonly signal: AbortSignal }) => void | Promise<void>;

/**
 * A gate in front of every claim: a tool's dependency is down, a quota is
 * spent, or a test injects a fault. Returning nothing lets the claim go on.
 */
export type BeforeClaim = (
  context: ClaimContext,
) => ClaimRefusal | undefined | Promise<ClaimRefusal | undefined>;

export function claimContext(
  input: RunAgentInput,
  runId: string,
  idempotencyKey: string,
  claims: readonly ClaimedAnswer[],
): ClaimContext {
  return {
    input,
    threadId: input.threadId,
    runId,
    idempotencyKey,
    interruptIds: claims.map(({ occurrence }) => occurrence.interruptId),
  };
}

/** The hook's refusal, if any; a hook that throws refuses with a retryable UNAVAILABLE. */
export async function askBeforeClaim(
  hook: BeforeClaim | undefined,
  context: ClaimContext,
): Promise<{ readonly code: string; readonly message: string } | undefined> {
  if (hook === undefined) return undefined;
  try {
    const answer = await hook(context);
    if (answer === undefined) return undefined;
    const { code, message } = answer.refuse;
    // A code the client cannot read would be taken as unknown: refuse with a retryable one instead.
    return isKnownOutcomeCode(code) ? { code, message } : { code: OutcomeCode.UNAVAILABLE, message };
  } catch {
    return {
      code: OutcomeCode.UNAVAILABLE,
      message: "the server could not take this claim now; retry later",
    };
  }
}
