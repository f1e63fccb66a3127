import {
  OutcomeCode,
  type RecordedDecision,
  type ResumeConflict,
  type ResumeEntry,
} from "@agui-outbox/core/protocol";
import { Validator } from "@cfworker/json-schema";
import { type Decision, type Occurrence, OccurrenceState, type OutcomeRecord } from "../store/records";
import { canonicalJson } from "./canonical-json";

export type ResumeVerdict =
  | {
      readonly kind: "reject";
      readonly code: string;
      readonly message: string;
      readonly conflict?: ResumeConflict;
    }
  | { readonly kind: "replay"; readonly outcome: OutcomeRecord }
  | {
      readonly kind: "claim";
      readonly claims: readonly ClaimedAnswer[];
    };

export interface ResumeContext {
  /** The thread's occurrences as read from the store, lapsed claims already swept. */
  readonly occurrences: readonly Occurrence[];
  readonly entries: readonly ResumeEntry[];
  /** The store's clock. */
  readonly now: number;
}

export interface ClaimedAnswer {
  readonly occurrence: Occurrence;
  readonly decision: Decision;
}

type EntryVerdict =
  | {
      readonly kind: "reject";
      readonly code: string;
      readonly message: string;
      readonly conflict?: ResumeConflict;
    }
  | { readonly kind: "replay"; readonly outcome: OutcomeRecord; readonly recorded: RecordedDecision }
  | { readonly kind: "claim"; readonly occurrence: Occurrence; readonly decision: Decision };

/** When a batch has several problems, the one the client can act on least is reported. */
const REJECT_PRIORITY: readonly string[] = [
  OutcomeCode.NOT_FOUND,
  OutcomeCode.INVALID_RESPONSE,
  OutcomeCode.EXPIRED,
  OutcomeCode.INDETERMINATE,
  OutcomeCode.ALREADY_RESOLVED,
  OutcomeCode.IN_PROGRESS,
  OutcomeCode.MISSING_INTERRUPT,
];

export function decisionOf(entry: ResumeEntry): Decision {
  return { status: entry.status, payload: entry.payload };
}

export function sameDecision(a: Decision, b: Decision): boolean {
  return a.status === b.status && canonicalJson(a.payload ?? null) === canonicalJson(b.payload ?? null);
}

function recorded(interruptId: string, decision: Decision): RecordedDecision {
  return decision.payload === undefined
    ? { interruptId, status: decision.status }
    : { interruptId, status: decision.status, payload: decision.payload };
}

/** An unanswered interrupt the thread is waiting on. */
export function isOpen(occurrence: Pick<Occurrence, "state" | "result" | "expiresAt">, now: number): boolean {
  if (occurrence.state !== OccurrenceState.pending) return false;
  return occurrence.result !== null || occurrence.expiresAt > now;
}

function evaluateEntry(ctx: ResumeContext, entry: ResumeEntry): EntryVerdict {
  const occurrence = ctx.occurrences.find((candidate) => candidate.interruptId === entry.interruptId);
  if (occurrence === undefined) {
    return {
      kind: "reject",
      code: OutcomeCode.NOT_FOUND,
      message: `interrupt ${entry.interruptId} was never pending in this thread`,
    };
  }
  const decision = decisionOf(entry);
  switch (occurrence.state) {
    case OccurrenceState.resolved:
    case OccurrenceState.rejected:
    case OccurrenceState.cancelled: {
      // The outcome record goes with the idempotency window; past it the occurrence can only be hydrated.
      const outcome = occurrence.outcome;
      const answered = occurrence.decision;
      if (outcome === null || answered === null) break;
      if (sameDecision(answered, decision)) {
        return { kind: "replay", outcome, recorded: recorded(entry.interruptId, answered) };
      }
      return {
        kind: "reject",
        code: OutcomeCode.ALREADY_RESOLVED,
        message: `interrupt ${entry.interruptId} was already answered with another decision`,
        conflict: {
          recordedDecisions: [recorded(entry.interruptId, answered)],
          originalRunId: outcome.runId,
        },
      };
    }
    case OccurrenceState.expired:
      return {
        kind: "reject",
        code: OutcomeCode.EXPIRED,
        message: `interrupt ${entry.interruptId} has expired`,
      };
    case OccurrenceState.indeterminate:
      return {
        kind: "reject",
        code: OutcomeCode.INDETERMINATE,
        message: `the tool for interrupt ${entry.interruptId} was cut off mid-execution; it may or may not have run, so it is not run again`,
      };
    case OccurrenceState.claimed:
    case OccurrenceState.executing:
    case OccurrenceState.executed:
      return {
        kind: "reject",
        code: OutcomeCode.IN_PROGRESS,
        message: `interrupt ${entry.interruptId} is being answered by run ${occurrence.claim?.runId ?? "unknown"}`,
        conflict: occurrence.claim === null ? {} : { claimedBy: occurrence.claim.runId },
      };
    case OccurrenceState.pending:
      break;
  }
  if (occurrence.state !== OccurrenceState.pending) {
    return {
      kind: "reject",
      code: OutcomeCode.INVALID,
      message: `interrupt ${entry.interruptId} cannot be resumed`,
    };
  }
  // The tool already ran for an earlier decision that was rolled back: only that decision can finish it.
  if (
    occurrence.decision !== null &&
    occurrence.result !== null &&
    !sameDecision(occurrence.decision, decision)
  ) {
    return {
      kind: "reject",
      code: OutcomeCode.ALREADY_RESOLVED,
      message: `the tool for interrupt ${entry.interruptId} already ran for another decision`,
      conflict: { recordedDecisions: [recorded(entry.interruptId, occurrence.decision)] },
    };
  }
  if (occurrence.result === null && occurrence.expiresAt <= ctx.now) {
    return {
      kind: "reject",
      code: OutcomeCode.EXPIRED,
      message: `interrupt ${entry.interruptId} has expired`,
    };
  }
  if (decision.status === "resolved" && occurrence.interrupt.responseSchema !== undefined) {
    const where = schemaViolation(occurrence.interrupt.responseSchema, decision.payload);
    if (where !== undefined) {
      return {
        kind: "reject",
        code: OutcomeCode.INVALID_RESPONSE,
        message: `the payload for interrupt ${entry.interruptId} does not match its responseSchema (at ${where})`,
      };
    }
  }
  return { kind: "claim", occurrence, decision };
}

/** Where the payload breaks the schema (a JSON pointer), or undefined when it fits. */
function schemaViolation(schema: Record<string, unknown>, payload: unknown): string | undefined {
  if (payload === undefined) return "# (no payload)";
  try {
    const result = new Validator(schema, "2020-12", true).validate(payload);
    return result.valid ? undefined : (result.errors[0]?.instanceLocation ?? "#");
  } catch {
    return "# (unreadable payload)";
  }
}

/**
 * Decides what a resume batch gets, from one read of the thread. Pure: the
 * caller performs the claim as a conditional write on the versions read, and
 * decides again if another writer got there first.
 */
export function evaluateResume(ctx: ResumeContext): ResumeVerdict {
  const verdicts = ctx.entries.map((entry) => evaluateEntry(ctx, entry));
  const rejects = verdicts.filter((verdict) => verdict.kind === "reject");
  const replays = verdicts.filter((verdict) => verdict.kind === "replay");
  const claims = verdicts.filter((verdict) => verdict.kind === "claim");

  if (rejects.length > 0) {
    const rank = (code: string) => {
      const index = REJECT_PRIORITY.indexOf(code);
      return index < 0 ? REJECT_PRIORITY.length : index;
    };
    const worst = [...rejects].sort((a, b) => rank(a.code) - rank(b.code))[0];
    if (worst !== undefined) {
      return worst.conflict === undefined
        ? { kind: "reject", code: worst.code, message: worst.message }
        : { kind: "reject", code: worst.code, message: worst.message, conflict: worst.conflict };
    }
  }
  if (replays.length > 0 && claims.length > 0) {
    // Part of the batch was answered before: it cannot be applied as one unit any more.
    return {
      kind: "reject",
      code: OutcomeCode.ALREADY_RESOLVED,
      message: "part of this batch was already answered",
      conflict: { recordedDecisions: replays.map((replay) => replay.recorded) },
    };
  }
  const firstReplay = replays[0];
  if (firstReplay !== undefined) return { kind: "replay", outcome: firstReplay.outcome };

  const answered = new Set(ctx.entries.map((entry) => entry.interruptId));
  const missing = ctx.occurrences.filter(
    (occurrence) => !answered.has(occurrence.interruptId) && isOpen(occurrence, ctx.now),
  );
  if (missing.length > 0) {
    return {
      kind: "reject",
      code: OutcomeCode.MISSING_INTERRUPT,
      message: `the batch must also answer ${missing.map((occurrence) => occurrence.interruptId).join(", ")}`,
    };
  }
  return {
    kind: "claim",
    claims: claims.map((claim) => ({ occurrence: claim.occurrence, decision: claim.decision })),
  };
}
