import * as z from "zod/mini";
import { BackgroundVerdict } from "./background-verdict";

/**
 * What is kept durably about one background run: enough to poll on after a
 * reload with the token the server last handed out, and to drop the events
 * already applied. Stored as one metadata value, so the token, the cursor and
 * the status always change together in one write.
 */
export const BackgroundRunRecordSchema = z.object({
  runId: z.string().check(z.minLength(1)),
  threadId: z.string().check(z.minLength(1)),
  /** The token to poll with next; null once the server finished the run. */
  continuationToken: z.nullable(z.string().check(z.minLength(1))),
  /** The last event seq applied to the thread (the stream cursor). */
  lastSeq: z.int().check(z.nonnegative()),
  /** The server's status at the last successful poll. */
  status: z.enum(["queued", "in_progress", "interrupted", "completed", "failed"]),
  verdict: z.enum([
    BackgroundVerdict.starting,
    BackgroundVerdict.polling,
    BackgroundVerdict.retryWait,
    BackgroundVerdict.paused,
    BackgroundVerdict.completed,
    BackgroundVerdict.lost,
    BackgroundVerdict.needsUser,
  ]),
  /** One sentence for the person about the verdict; never quotes content. */
  verdictReason: z.nullable(z.string()),
  /** The verdict-table row (or background rule) that decided the verdict. */
  rule: z.nullable(z.string()),
  /** Failed polls in a row; a successful poll resets it. */
  attempts: z.int().check(z.nonnegative()),
  /** When the current stretch of failed polls began (the retry budget counts from here). */
  failingSince: z.nullable(z.number()),
  /** When to poll next (epoch ms); null when nothing is scheduled. */
  nextPollAt: z.nullable(z.number()),
  /** The last failure, raw code and message kept. */
  lastError: z.nullable(
    z.object({
      kind: z.string(),
      code: z.optional(z.string()),
      message: z.string(),
      status: z.optional(z.number()),
    }),
  ),
  /** The start request's `Idempotency-Key`, reused by every retry of the start. */
  idempotencyKey: z.optional(z.string().check(z.minLength(1))),
  /** The exact start request body while `starting` (a retry sends these bytes); null once started. */
  startBody: z.optional(z.nullable(z.string())),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type BackgroundRunRecord = z.infer<typeof BackgroundRunRecordSchema>;

export interface NewBackgroundRun {
  readonly runId: string;
  readonly threadId: string;
  readonly continuationToken: string | null;
  readonly status: BackgroundRunRecord["status"];
  readonly lastSeq: number;
  readonly now: number;
}

/** The record written right after the server accepted the run, before its first poll. */
export function createBackgroundRunRecord(input: NewBackgroundRun): BackgroundRunRecord {
  return {
    runId: input.runId,
    threadId: input.threadId,
    continuationToken: input.continuationToken,
    lastSeq: input.lastSeq,
    status: input.status,
    verdict: BackgroundVerdict.polling,
    verdictReason: null,
    rule: null,
    attempts: 0,
    failingSince: null,
    nextPollAt: input.now,
    lastError: null,
    createdAt: input.now,
    updatedAt: input.now,
  };
}

export interface StartingBackgroundRun {
  readonly runId: string;
  readonly threadId: string;
  readonly idempotencyKey: string;
  readonly startBody: string;
  readonly now: number;
}

/** The record written ahead of the start request, so a reload can finish starting the run. */
export function createStartingBackgroundRunRecord(input: StartingBackgroundRun): BackgroundRunRecord {
  return {
    ...createBackgroundRunRecord({ ...input, continuationToken: null, status: "queued", lastSeq: 0 }),
    verdict: BackgroundVerdict.starting,
    idempotencyKey: input.idempotencyKey,
    startBody: input.startBody,
  };
}

/** Oldest run first; the run id breaks a tie, so every tab lists them alike. */
export function oldestFirst(a: BackgroundRunRecord, b: BackgroundRunRecord): number {
  return a.createdAt - b.createdAt || (a.runId < b.runId ? -1 : 1);
}
