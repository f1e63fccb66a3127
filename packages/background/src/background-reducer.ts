import type { EntryError } from "@agui-outbox/core";
import type { BackgroundStatus } from "@agui-outbox/core/protocol";
import type { BackgroundRunRecord } from "./background-run-record";
import { BackgroundVerdict } from "./background-verdict";

/** Every change a background run record can go through. One action, one durable write. */
export type BackgroundRunAction =
  /** A poll answered 200 and its events were applied up to `lastSeq`; the run goes on. */
  | {
      readonly type: "polled";
      readonly at: number;
      readonly status: BackgroundStatus;
      readonly continuationToken: string | null;
      readonly lastSeq: number;
      /** When to poll again. */
      readonly nextPollAt: number;
    }
  /** A transient failure: the held token stays, the next poll waits until `retryAt`. */
  | {
      readonly type: "retry-scheduled";
      readonly at: number;
      readonly retryAt: number;
      readonly reason: string;
      readonly rule: string;
      readonly error: EntryError | null;
    }
  /** The held token was stale: the run status named the current one. */
  | {
      readonly type: "token-adopted";
      readonly at: number;
      readonly continuationToken: string;
      readonly reason: string;
      readonly rule: string;
      readonly error: EntryError | null;
    }
  /** 401/403: wait for the app to re-authenticate. */
  | {
      readonly type: "paused";
      readonly at: number;
      readonly reason: string;
      readonly error: EntryError | null;
    }
  /** Poll now (after re-authentication, or the person asked to try again). */
  | { readonly type: "poll-now"; readonly at: number }
  /** A final verdict. */
  | {
      readonly type: "settled";
      readonly at: number;
      readonly verdict: "completed" | "lost" | "needs_user";
      readonly reason: string;
      readonly rule: string;
      readonly error: EntryError | null;
      /** The server status, when the verdict came from one. */
      readonly status?: BackgroundStatus;
      /** The cursor reached while settling (events applied from a status or re-attach). */
      readonly lastSeq?: number;
      /** The server's token when it answered one (null once the run is over); kept otherwise. */
      readonly continuationToken?: string | null;
      /** Failed polls counted when the verdict is the retry budget running out. */
      readonly attempts?: number;
    };

/**
 * The one place a record changes. Pure: the caller supplies the time and every
 * decision that needed the network, then persists what this returns.
 *
 * ```
 *   polling ──poll 200──▶ polling (new token, cursor) ──status completed──▶ completed
 *      │  ▲                         └──status failed──▶ lost | needs_user
 *      │  └─ due ── retry_wait ◀── 5xx / 429 / 409 IN_PROGRESS / network (same token)
 *      ├─ 409 STALE / 404 UNKNOWN ─▶ GET status ─▶ token-adopted ─▶ polling
 *      │                                      └─▶ terminal ─▶ completed | lost | needs_user
 *      └─ 401/403 ─▶ paused ──resumeAfterAuth──▶ polling
 * ```
 */
export function reduceBackgroundRun(
  record: BackgroundRunRecord,
  action: BackgroundRunAction,
): BackgroundRunRecord {
  switch (action.type) {
    case "polled":
      return {
        ...record,
        ...(record.startBody == null ? {} : { startBody: null }),
        status: action.status,
        continuationToken: action.continuationToken,
        lastSeq: Math.max(record.lastSeq, action.lastSeq),
        verdict: BackgroundVerdict.polling,
        verdictReason: null,
        rule: null,
        attempts: 0,
        failingSince: null,
        nextPollAt: action.nextPollAt,
        lastError: null,
        updatedAt: action.at,
      };
    case "retry-scheduled":
      return {
        ...record,
        // A start that failed is still a start: it is sent again, never polled.
        verdict: record.verdict === BackgroundVerdict.starting ? record.verdict : BackgroundVerdict.retryWait,
        verdictReason: action.reason,
        rule: action.rule,
        attempts: record.attempts + 1,
        failingSince: record.failingSince ?? action.at,
        nextPollAt: action.retryAt,
        lastError: action.error,
        updatedAt: action.at,
      };
    case "token-adopted":
      return {
        ...record,
        continuationToken: action.continuationToken,
        verdict: BackgroundVerdict.polling,
        verdictReason: action.reason,
        rule: action.rule,
        // Counted as a failed poll: a server that keeps handing out stale tokens ends at the budget.
        attempts: record.attempts + 1,
        failingSince: record.failingSince ?? action.at,
        nextPollAt: action.at,
        lastError: action.error,
        updatedAt: action.at,
      };
    case "paused":
      return {
        ...record,
        verdict: BackgroundVerdict.paused,
        verdictReason: action.reason,
        rule: "http-unauthorized",
        nextPollAt: null,
        lastError: action.error,
        updatedAt: action.at,
      };
    case "poll-now":
      if (record.continuationToken === null && record.startBody == null) return record;
      return {
        ...record,
        verdict: record.startBody == null ? BackgroundVerdict.polling : BackgroundVerdict.starting,
        verdictReason: null,
        attempts: 0,
        failingSince: null,
        nextPollAt: action.at,
        updatedAt: action.at,
      };
    case "settled":
      return {
        ...record,
        ...(record.startBody == null ? {} : { startBody: null }),
        ...(action.status === undefined ? {} : { status: action.status }),
        ...(action.continuationToken === undefined ? {} : { continuationToken: action.continuationToken }),
        lastSeq: Math.max(record.lastSeq, action.lastSeq ?? 0),
        ...(action.attempts === undefined ? {} : { attempts: action.attempts }),
        verdict: action.verdict,
        verdictReason: action.reason,
        rule: action.rule,
        nextPollAt: null,
        lastError: action.error,
        updatedAt: action.at,
      };
  }
}
