import { buildHydrationBody } from "../answer/build-resume-body";
import type { OutboxDeps } from "../client/deps";
import { pumpRunStream } from "../delivery/pump-run-stream";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import type { DeliverySignal, ServerKind } from "../outcome/delivery-signal";
import { type AgUiEvent, EventType, type Message, type RunAgentInput } from "../protocol";
import { backoffDelay } from "../retry/backoff";
import { createEventLog } from "../stream/event-log";
import type { AgentHttp } from "../transport/agent-http";
import { withChildSignal } from "../transport/child-signal";
import type { ThreadRegistry } from "./thread-registry";

export interface ThreadRunnerOptions {
  readonly http: AgentHttp;
  readonly threads: ThreadRegistry;
  readonly deps: OutboxDeps;
  readonly serverKind: () => ServerKind;
  readonly stallTimeoutMs: number;
  readonly maxEventBytes: number;
  /** Re-attach tries after a dropped stream before falling back to hydration. */
  readonly maxReattaches: number;
  /** A message's run ended: whether its stream carried event ids (only contract servers send them). */
  readonly onCursorsSeen?: (seen: boolean) => void;
}

/**
 * Runs that are not answers: a user message, and hydration. A dropped stream is
 * re-attached with `Last-Event-ID`, and where that is impossible the thread is
 * hydrated, so the screen never misses or repeats a message.
 */
export class ThreadRunner {
  readonly #options: ThreadRunnerOptions;
  readonly #abort = new AbortController();
  /** Per thread, settles once the hydrations in flight have: a message waits for them (their snapshot would wipe its events). */
  readonly #hydrating = new Map<string, Promise<unknown>>();
  /** Per thread, the last hydration started and the newest applied: an older snapshot read late is ignored. */
  readonly #order = new Map<string, { started: number; applied: number }>();

  constructor(options: ThreadRunnerOptions) {
    this.#options = options;
  }

  dispose(): void {
    this.#abort.abort(new OutboxError(ErrorKind.disposed, "The client was disposed."));
  }

  /** Sends a user message and follows the run to its end. Rejects with an `OutboxError`. */
  async send(threadId: string, text: string): Promise<void> {
    const { threads, deps } = this.#options;
    await this.#hydrating.get(threadId);
    // Applied as events, so every tab that mirrors this one shows the message too.
    const messageId = deps.randomUUID();
    for (const event of userMessageEvents(messageId, text)) threads.apply(threadId, event);
    const runId = deps.randomUUID();
    const { messages } = threads.get(threadId);
    const input: RunAgentInput = {
      threadId,
      runId,
      state: {},
      messages: messages as Message[],
      tools: [],
      context: [],
    };
    await this.#run(threadId, runId, JSON.stringify(input));
  }

  /** Replays the thread's snapshot and its open interrupts from the server. */
  async hydrate(threadId: string): Promise<void> {
    const runId = this.#options.deps.randomUUID();
    const order = this.#order.get(threadId) ?? { started: 0, applied: 0 };
    const mine = order.started + 1;
    this.#order.set(threadId, { ...order, started: mine });
    const hydration = this.#run(threadId, runId, buildHydrationBody(threadId, runId), mine);
    const settled = Promise.allSettled([this.#hydrating.get(threadId), hydration]);
    this.#hydrating.set(threadId, settled);
    void settled.then(() => {
      if (this.#hydrating.get(threadId) === settled) this.#hydrating.delete(threadId);
    });
    await hydration;
  }

  /**
   * `hydration` (its order among the thread's hydrations): a cut it cannot re-attach
   * rejects (the caller's budget decides); any other run's cut falls back to hydration.
   */
  #run(threadId: string, runId: string, body: string, hydration?: number): Promise<void> {
    const { http, deps, threads } = this.#options;
    return withChildSignal(this.#abort.signal, async (abort) => {
      const response = await http.postRun(body, { signal: abort });
      if (!response.ok) {
        const { status, message, code } = await http.failure(response);
        const details = { status, ...(code ? { code } : {}) };
        throw new OutboxError(ErrorKind.http, `The agent answered HTTP ${status}: ${message}`, details);
      }
      const log = createEventLog();
      const onEvent = (event: AgUiEvent) => {
        if (hydration !== undefined) {
          const order = this.#order.get(threadId) ?? { started: hydration, applied: 0 };
          if (order.applied > hydration) return;
          this.#order.set(threadId, { ...order, applied: hydration });
        }
        threads.apply(threadId, event);
      };
      const { stallTimeoutMs, maxEventBytes } = this.#options;
      const pump = (from: Response) =>
        pumpRunStream(from, {
          log,
          timers: deps.timers,
          stallTimeoutMs,
          maxEventBytes,
          signal: abort,
          onEvent,
        });
      let signal = await pump(response);
      for (let attempt = 0; signal.type !== "run-finished" && signal.type !== "run-error"; attempt += 1) {
        if (signal.type === "invalid-stream") throw new OutboxError(signal.kind, signal.message);
        const lastSeq = log.lastSeq(runId);
        if (
          this.#options.serverKind() === "contract" &&
          lastSeq > 0 &&
          attempt < this.#options.maxReattaches
        ) {
          const delay = backoffDelay(attempt, { random: deps.random });
          await new Promise<void>((resolve) => deps.timers.setTimeout(resolve, delay));
          // A re-attach that failed to connect is one try of the budgeted loop, retried after backoff.
          const reattached = await http.reattach(runId, lastSeq, abort).catch(() => undefined);
          if (!reattached) continue;
          if (reattached.ok) {
            signal = await pump(reattached);
            continue;
          }
          await reattached.body?.cancel();
        }
        if (hydration !== undefined) throw cutError(signal);
        return this.hydrate(threadId);
      }
      if (hydration === undefined) this.#options.onCursorsSeen?.(log.lastSeq(runId) > 0);
      if (signal.type === "run-error") {
        throw new OutboxError(ErrorKind.runError, signal.message, signal.code ? { code: signal.code } : {});
      }
    });
  }
}

function userMessageEvents(messageId: string, text: string): AgUiEvent[] {
  return [
    { type: EventType.TEXT_MESSAGE_START, messageId, role: "user" },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: text },
    { type: EventType.TEXT_MESSAGE_END, messageId },
  ];
}

/** A hydration's stream cut before its terminal event, as the error its caller classifies. */
function cutError(signal: DeliverySignal): OutboxError {
  if (signal.type === "stream-stalled")
    return new OutboxError(ErrorKind.streamStalled, "The hydration stalled.");
  if (signal.type !== "network-error") {
    return new OutboxError(
      ErrorKind.streamEnded,
      "The hydration's stream ended before RUN_FINISHED or RUN_ERROR.",
    );
  }
  return new OutboxError(ErrorKind.network, signal.message ?? "The network failed during the hydration.");
}
