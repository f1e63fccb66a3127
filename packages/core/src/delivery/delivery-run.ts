import { EntryState, type OutboxEntry } from "../outbox/entry";
import { countersOf, type EntryAction } from "../outbox/reducer";
import type { DeliverySignal } from "../outcome/delivery-signal";
import type { Verdict } from "../outcome/verdict";
import { EventType } from "../protocol";
import { backoffDelay } from "../retry/backoff";
import { abortableSleep } from "./abortable-sleep";
import { buildBodyFor, refusedBySchema } from "./batch-body";
import type { BatchDelivery } from "./batch-delivery";
import type { DeliveryContext } from "./delivery-options";
import { type DeliveryStep, type DeliveryStepContext, deliveryStep, verdictOf } from "./delivery-step";
import type { DeliveryTransport } from "./delivery-transport";
import { readUntilDecided } from "./read-until-decided";
import { hydratedSignal } from "./thread-evidence";

/** What one delivery needs from the engine that schedules it. */
export interface DeliveryRunContext extends DeliveryContext {
  readonly transport: DeliveryTransport;
  readonly batches: BatchDelivery;
  readonly schedule: (key: string) => void;
}

/*
 * One entry's delivery, from its current state to a verdict:
 *
 *   queued / retry_wait (due) ──send──▶ POST /agent (same key, runId, body)
 *        ▲                               │
 *        │ wait(at): retry_wait,         ├─ HTTP error ─────────────▶ signal
 *        │  timer (backoff, Retry-After) └─ 200 event stream ──▶ pump ─▶ signal
 *        │                                      RUN_STARTED + ack ─▶ claim-acked (cursor persisted)
 *   deliveryStep(entry, signal) ◀───────────────┘
 *     ├─ settle ─▶ applied / elsewhere / lost / needs_user / paused, persisted
 *     ├─ wait(at) ─▶ retry_wait with nextAttemptAt, timer
 *     ├─ reattach ─▶ GET /runs/{runId}/events, Last-Event-ID ─▶ pump ─▶ signal
 *     ├─ status ─▶ GET /runs/{runId}: terminal ─▶ its signal; gone ─▶ hydrate
 *     └─ hydrate ─▶ POST hydration ─▶ tool result seen? ─▶ signal
 *
 * The decisions are data (`deliveryStep` is pure); this class performs them (a
 * request, a durable write, a timer). Every transition is one reducer step and
 * one durable write, never inside a fetch: the store is written, then the
 * network is used.
 */
export class DeliveryRun {
  readonly #c: DeliveryRunContext;

  constructor(context: DeliveryRunContext) {
    this.#c = context;
  }

  /**
   * `started`: its attempt is already written (by the start's one transaction),
   * so the POST goes without a write of its own. An entry in flight otherwise was
   * cut off (the page that sent it died, or a stop): its first write records its
   * recovery, as after a reload. Called by the schedule, for an entry that
   * sends on its own and is due now.
   */
  async deliver(key: string, started = false): Promise<void> {
    const initial = this.#c.book.get(key);
    if (!initial) return;
    if (started && initial.state === EntryState.sending) {
      await this.#follow(key, await this.#c.transport.post(key));
      return;
    }
    const recovering = initial.state === EntryState.sending || initial.state === EntryState.streaming;
    if (initial.everSent && this.#c.options.deps.now() >= initial.expiresAt) {
      if (recovering)
        await this.#c.book.commit(key, { type: "recovered-on-start", at: this.#c.options.deps.now() });
      await this.#reconcile(key);
      return;
    }
    const now = this.#c.options.deps.now();
    if (
      initial.state === EntryState.retryWait &&
      initial.nextAttemptAt !== null &&
      initial.nextAttemptAt > now
    ) {
      // The wait is over by real time while the wall clock lags (it jumped back):
      // the attempt may start now.
      await this.#c.book.commit(key, { type: "retry-now", at: now });
    }
    // Never sent: it waits for the server kind (the engine's `kindChanged` sends it).
    if (!initial.everSent && !this.#c.options.kindKnown()) return;
    let body: string | undefined;
    if (initial.body === "") {
      // Shaped now, for the kind known now, and fixed from this first send on.
      const built = await buildBodyFor(
        initial,
        [initial, ...this.#c.book.followersOf(key)],
        this.#c.options.serverKind(),
      );
      if (!built.ok) {
        await this.#settle(key, refusedBySchema(built.message));
        return;
      }
      body = built.body;
    }
    const first =
      initial.state === EntryState.streaming && initial.cursor.acked
        ? await this.#c.transport.reattach(key)
        : await this.#c.transport.send(key, recovering, body);
    await this.#follow(key, first);
  }

  /** Feeds each signal through `deliveryStep` and performs its decision, until the delivery is over. */
  async #follow(key: string, first: DeliverySignal | undefined): Promise<void> {
    if (!first) return;
    let signal: DeliverySignal = first;
    for (;;) {
      if (!this.#c.active()) return;
      const entry = this.#c.book.get(key);
      if (!entry) return;
      const step = deliveryStep(entry, signal, this.#stepContext());
      const next = await this.#perform(key, entry, step, signal);
      if (next === undefined) return;
      signal = next;
    }
  }

  #stepContext(): DeliveryStepContext {
    return {
      serverKind: this.#c.options.serverKind(),
      now: this.#c.options.deps.now(),
      retry: this.#c.options.retry,
      jitter: this.#c.options.deps.random(),
      serverRetryMs: this.#c.transport.serverRetryMs,
      maxReattachesWithoutProgress: this.#c.options.maxReattachesWithoutProgress,
    };
  }

  /**
   * Carries out one decision, writing the step's counters with it; the next
   * signal, or undefined when this delivery is over.
   */
  async #perform(
    key: string,
    entry: OutboxEntry,
    step: DeliveryStep,
    signal: DeliverySignal,
  ): Promise<DeliverySignal | undefined> {
    const decision = step.decision;
    const at = this.#c.options.deps.now();
    const counted: EntryAction[] =
      step.counters === countersOf(entry) ? [] : [{ type: "counted", counters: step.counters, at }];
    const writeCounters = async () => {
      if (counted.length > 0) await this.#c.book.commit(key, ...counted);
    };
    switch (decision.type) {
      case "stop":
        await writeCounters();
        return undefined;
      case "reattach": {
        const failedBefore = step.counters.reattachesWithoutProgress;
        // A re-attach that brought nothing waits a backoff before the next one.
        if (failedBefore > 0) {
          const ms = backoffDelay(failedBefore - 1, { random: this.#c.options.deps.random });
          await abortableSleep(this.#c.options.deps.timers, ms, this.#c.abortSignal());
        }
        if (!this.#c.active()) return undefined;
        const next = await this.#c.transport.reattach(key);
        const after = this.#c.book.get(key);
        if (!after) return undefined;
        const progressed = after.cursor.lastSeq > entry.cursor.lastSeq;
        const counters = {
          ...countersOf(after),
          reattachesWithoutProgress: progressed ? 0 : failedBefore + 1,
        };
        await this.#c.book.commit(key, { type: "counted", counters, at: this.#c.options.deps.now() });
        return next;
      }
      case "status":
      case "hydrate":
        // Why the entry reads is its last error while the read goes (an unreadable event, a cut stream).
        if (decision.cause === null) await writeCounters();
        else
          await this.#c.book.commit(key, {
            type: "counted",
            counters: step.counters,
            at,
            error: decision.cause,
          });
        return readUntilDecided(this.#c, key, decision.type, decision.cause);
      case "wait":
        await this.#c.book.commit(key, ...counted, {
          type: "verdict",
          verdict: decision.verdict,
          at,
          nextAttemptAt: decision.at,
        });
        this.#c.schedule(key);
        return undefined;
      case "stall":
        await this.#c.book.commit(key, ...counted, {
          type: "stalled",
          reason: decision.reason,
          error: decision.error,
          at,
        });
        return undefined;
      case "settle":
        await writeCounters();
        await this.#settle(key, decision.verdict, signal);
        return undefined;
    }
  }

  /**
   * Past the retention window the server may have forgotten the key, so a resend
   * is no longer known to be safe: ask what became of the run (status, then the
   * thread) and settle on that, or mark the entry expired, keeping the answer.
   */
  async #reconcile(key: string): Promise<void> {
    const signal = await this.#c.transport.statusThenHydrate(key);
    const entry = this.#c.book.get(key);
    if (!entry) return;
    if (signal.type === "read-failed") {
      await this.#c.book.commit(key, { type: "expired", at: this.#c.options.deps.now() });
      return;
    }
    const verdict = verdictOf(entry, signal, this.#c.options.serverKind());
    if (verdict.kind === "applied" || verdict.kind === "elsewhere" || verdict.kind === "lost") {
      await this.#settle(key, verdict, signal);
      return;
    }
    await this.#c.book.commit(key, { type: "expired", at: this.#c.options.deps.now() });
  }

  /**
   * Answers held for the others of their run, in a thread just read again: one
   * whose question the server no longer asks was answered on another device (or
   * cancelled) and settles as such; the others stay held.
   */
  async settleClosed(threadId: string): Promise<void> {
    for (const entry of [...this.#c.book.values()]) {
      if (entry.threadId !== threadId || entry.state !== EntryState.held) continue;
      const signal = hydratedSignal(this.#c.options.threads, entry, this.#c.options.serverKind());
      const verdict = verdictOf(entry, signal, this.#c.options.serverKind());
      if (verdict.kind === "elsewhere") await this.#settleOne(entry.key, verdict);
    }
  }

  /**
   * Writes the verdict; the answers sent in the same request get their own,
   * from the same signal read in each one's context (a hydration is read for
   * each one's own tool call), or this one's where theirs would not settle.
   */
  async #settle(key: string, verdict: Verdict, signal?: DeliverySignal): Promise<void> {
    // Answered elsewhere by the server's word, not by a read: the thread went on
    // without this tab (the winning answer's run, the agent's reply), so read it.
    const stale = signal?.type !== "hydrated";
    const entry = this.#c.book.get(key);
    // The run failed and the answer will not be sent again: now the conversation says so.
    if (entry && signal?.type === "run-error" && verdict.kind !== "applied" && verdict.kind !== "elsewhere") {
      const { message, code } = signal;
      this.#c.options.threads.apply(entry.threadId, {
        type: EventType.RUN_ERROR,
        message,
        ...(code ? { code } : {}),
      });
    }
    await this.#settleOne(key, verdict, stale);
    const verdicts = this.#c.batches.followerVerdicts(key, verdict, signal, this.#c.options.serverKind());
    for (const [follower, own] of verdicts) await this.#settleOne(follower, own, stale);
  }

  async #settleOne(key: string, verdict: Verdict, stale = false): Promise<void> {
    const settled = await this.#c.book.commit(key, {
      type: "verdict",
      verdict,
      at: this.#c.options.deps.now(),
    });
    if (!settled) return;
    const threads = this.#c.options.threads;
    if (verdict.kind === "applied" || verdict.kind === "elsewhere" || verdict.kind === "lost") {
      threads.dropInterrupt(settled.threadId, settled.interruptId);
    }
    if ((verdict.kind === "needs_user" && verdict.hydrate) || (verdict.kind === "elsewhere" && stale)) {
      this.#c.options.hydrate(settled.threadId).catch(() => {
        // The card stays as it is; the next hydration refreshes it.
      });
    }
    if (verdict.kind === "paused") this.#c.options.onPaused(settled);
  }
}
