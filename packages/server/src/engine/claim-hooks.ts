import { isKnownOutcomeCode, OutcomeCode, type RunAgentInput } from "@agui-outbox/core/protocol";
import type { ClaimedAnswer } from "./resume-verdict";
import type { RunAttempt } from "./run-attempt";
import { contractFailure, runError } from "./run-error";

/** What a resume is about to claim, for {@link BeforeClaim}. */
export interface ClaimContext {
  readonly input: RunAgentInput;
  readonly threadId: string;
  readonly runId: string;
  readonly idempotencyKey: string;
  /** The batch's interrupts, all of which the claim would take. */
  readonly interruptIds: readonly string[];
  /** The caller's identity, as the app's `identify` returned it; undefined without `identify`. Scope your own data by it. */
  readonly identity: string | undefined;
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
  identity: string | undefined,
): ClaimContext {
  return {
    identity,
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

/**
 * Runs the `afterClaim` hook once the ack is on its way. False when the run
 * ended in it: a throw rolled the claim back with its `RUN_ERROR`, or the
 * instance was abandoned (nothing more is written).
 */
export async function passAfterClaim(
  hook: AfterClaim | undefined,
  attempt: RunAttempt,
  context: ClaimContext,
): Promise<boolean> {
  if (hook === undefined) return true;
  // Let the response begin streaming the ack first: a failure "after the claim" is seen after it.
  await new Promise<void>((resolve) => setImmediate(resolve));
  try {
    await hook({ ...context, signal: attempt.signal });
  } catch (error) {
    if (attempt.ended) return false;
    const failure = contractFailure(
      error,
      "the server failed after claiming the answer; retry with the same Idempotency-Key",
    );
    // Written with the rollback; a reader gone misses nothing it can use.
    await attempt.emit(runError(failure.code, failure.message), { kind: "rollback" }).catch(() => {});
    return false;
  }
  return !attempt.ended;
}
