import type { ResumeEntry } from "@agui-outbox/core/protocol";
import {
  type Occurrence as ContractOccurrence,
  type OutcomeRecord as ContractOutcome,
  evaluateResume,
  type ResumeVerdict,
} from "@agui-outbox/server";
import {
  type Decision,
  type MockState,
  type Occurrence,
  OccurrenceState,
  occurrenceKey,
} from "../state/mock-state";

export interface MockClaimedAnswer {
  readonly occurrence: Occurrence;
  readonly decision: Decision;
}

/** The library's verdict, with the claims pointing at the mock's own (mutable) occurrences. */
export type MockResumeVerdict =
  | Exclude<ResumeVerdict, { kind: "claim" }>
  | { readonly kind: "claim"; readonly claims: readonly MockClaimedAnswer[] };

/**
 * Applies the lazy transitions a restart leaves behind: a claim whose lease ran
 * out, held by no live run, is released — to PENDING when nothing was cut off,
 * to INDETERMINATE when a tool was executing and left no result.
 */
export function settleLapsedClaim(
  occurrence: Occurrence,
  now: number,
  isLive: (runId: string) => boolean,
): boolean {
  const claim = occurrence.claim;
  if (claim === null || isLive(claim.runId) || claim.leaseUntil > now) return false;
  occurrence.claim = null;
  if (occurrence.state === OccurrenceState.executing && occurrence.result === null) {
    occurrence.state = OccurrenceState.indeterminate;
  } else {
    occurrence.state = OccurrenceState.pending;
    if (occurrence.result === null) occurrence.decision = null;
  }
  return true;
}

/** The mock's occurrence as the library's verdict reads it: a final one's decision is its outcome's. */
function contractView(occurrence: Occurrence): ContractOccurrence {
  const outcome: ContractOutcome | null =
    occurrence.outcome === null
      ? null
      : {
          key: occurrence.outcome.key,
          runId: occurrence.outcome.runId,
          threadId: occurrence.threadId,
          events: occurrence.outcome.events,
          at: occurrence.outcome.at,
        };
  return {
    ...occurrence,
    claim: occurrence.claim === null ? null : { ...occurrence.claim },
    decision: occurrence.outcome?.decision ?? occurrence.decision,
    outcome,
    version: 0,
  };
}

/**
 * Decides a resume batch with the library's rules over the mock's state
 * document. The lazy transitions the library leaves to its sweeper and its
 * stores happen here, in place: each answered occurrence's lapsed claim is
 * settled first, and a pending one past its expiry with no result becomes
 * EXPIRED.
 */
export function decideResume(ctx: {
  readonly state: MockState;
  readonly threadId: string;
  readonly entries: readonly ResumeEntry[];
  readonly now: number;
  /** Claims held by a run live in this process never lapse, whatever the clock says. */
  readonly isLive: (runId: string) => boolean;
}): MockResumeVerdict {
  const { state, threadId, now } = ctx;
  const named = ctx.entries.flatMap((entry) => {
    const occurrence = state.occurrences[occurrenceKey(threadId, entry.interruptId)];
    return occurrence === undefined ? [] : [occurrence];
  });
  for (const occurrence of named) settleLapsedClaim(occurrence, now, ctx.isLive);
  const thread = Object.values(state.occurrences).filter((occurrence) => occurrence.threadId === threadId);
  const verdict = evaluateResume({ occurrences: thread.map(contractView), entries: ctx.entries, now });
  for (const occurrence of named) {
    if (
      occurrence.state === OccurrenceState.pending &&
      occurrence.result === null &&
      occurrence.expiresAt <= now
    )
      occurrence.state = OccurrenceState.expired;
  }
  if (verdict.kind !== "claim") return verdict;
  return {
    kind: "claim",
    claims: verdict.claims.map(({ occurrence, decision }) => {
      const own = state.occurrences[occurrenceKey(threadId, occurrence.interruptId)];
      if (own === undefined) throw new Error(`occurrence ${occurrence.interruptId} vanished mid-verdict`);
      // A verdict's decision is the entry's (decisionOf): its payload is there, undefined or not.
      return { occurrence: own, decision: { status: decision.status, payload: decision.payload } };
    }),
  };
}
