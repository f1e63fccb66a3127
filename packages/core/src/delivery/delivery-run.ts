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
 * `deliveryStep` decides (pure); this class performs (a request, a write, a timer). Every
 * transition is one reducer step and one durable write, made before the network is used.
 */
export class DeliveryRun {
  readonly #c: DeliveryRunContext;

  constructor(context: DeliveryRunContext) {
    this.#c = context;
  }

  /**
   * `started`: the start's transaction already wrote its attempt, so the POST goes with no
   * write of its own. Any other in-flight entry was cut off: its first write records recovery.
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
      // The wait is over by real time while the wall clock jumped back.
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
    };
  }

  /** Carries out one decision with the step's counters; the next signal, or undefined when over. */
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
   * Past retention the server may have forgotten the key, so a resend is no longer safe: ask
   * status, then the thread, or mark the entry expired, keeping the answer.
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

  /** Held answers whose question the thread no longer asks were answered elsewhere (or cancelled). */
  async settleClosed(threadId: string): Promise<void> {
    for (const entry of [...this.#c.book.values()]) {
      if (entry.threadId !== threadId || entry.state !== EntryState.held) continue;
      const signal = hydratedSignal(this.#c.options.threads, entry, this.#c.options.serverKind());
      const verdict = verdictOf(entry, signal, this.#c.options.serverKind());
      if (verdict.kind === "elsewhere") await this.#settleOne(entry.key, verdict);
    }
  }

  /** Writes the verdict; the request's other answers each read the same signal in their own context. */
  async #settle(key: string, verdict: Verdict, signal?: DeliverySignal): Promise<void> {
    // Answered elsewhere by the server's word: the thread went on without this tab, so read it.
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
