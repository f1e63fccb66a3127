import type { OutboxEntry } from "../outbox/entry";
import { countersOf } from "../outbox/reducer";
import type { DeliverySignal } from "../outcome/delivery-signal";
import { backoffDelay } from "../retry/backoff";
import { DEFAULT_RETRY_MAX_ATTEMPTS } from "../retry/retry-budget";
import { abortableSleep } from "./abortable-sleep";
import type { DeliveryContext } from "./delivery-options";
import type { DeliveryTransport } from "./delivery-transport";
import { hydratedSignal } from "./thread-evidence";

export interface ReadContext extends DeliveryContext {
  readonly transport: DeliveryTransport;
}

/**
 * A status or thread read, retried until it succeeds or its budget is spent; every failure spends
 * it and is kept as the last error. A refusal or a spent budget decides on the thread in hand; a
 * success puts back `cause`.
 */
export async function readUntilDecided(
  c: ReadContext,
  key: string,
  type: "status" | "hydrate",
  cause: OutboxEntry["lastError"],
): Promise<DeliverySignal | undefined> {
  const budget = c.options.retry.budget?.maxAttempts ?? DEFAULT_RETRY_MAX_ATTEMPTS;
  for (;;) {
    const before = c.book.get(key);
    if (!before) return undefined;
    const failed = countersOf(before).failedReads ?? 0;
    if (failed > 0) {
      const ms = backoffDelay(failed - 1, { random: c.options.deps.random });
      await abortableSleep(c.options.deps.timers, ms, c.abortSignal());
      if (!c.active()) return undefined;
    }
    const read =
      type === "status" ? await c.transport.statusThenHydrate(key) : await c.transport.hydrate(key);
    const after = c.book.get(key);
    if (!after || !c.active()) return undefined;
    const at = c.options.deps.now();
    if (read.type !== "read-failed") {
      if (failed > 0) {
        const counters = { ...countersOf(after), failedReads: 0 };
        await c.book.commit(key, { type: "counted", counters, at, error: cause });
      }
      return read;
    }
    const failures = failed + 1;
    const what = read.of === "status" ? "the run's status" : "the conversation";
    await c.book.commit(key, {
      type: "counted",
      counters: { ...countersOf(after), failedReads: failures },
      at,
      error: {
        ...read.error,
        message: `Could not read ${what} (${failures} time(s) in a row): ${read.error.message}`,
      },
    });
    if (!read.transient || failures >= budget)
      return hydratedSignal(c.options.threads, after, c.options.serverKind());
  }
}
