import { EntryState, type OutboxEntry } from "../outbox/entry";
import { reduceEntry } from "../outbox/reducer";

/*
 * The first resend of a reloaded page, decided from what the start read, so its
 * `sending` write can share the start's one transaction:
 *
 *   entries (oldest first) ─▶ first that goes at once with its fixed body
 *        ─▶ recovered-on-start (if it was in flight) ─▶ attempt-started ─▶ sending
 *
 * Only the plain case qualifies (a POST at once with its fixed body); a body to build, a re-attach,
 * a wait, a batch or an expired entry is left to the delivery.
 */
export function firstResend(entries: readonly OutboxEntry[], now: number): OutboxEntry | undefined {
  for (const entry of entries) {
    const next = resendNow(entry, now);
    if (next !== undefined) return next;
  }
  return undefined;
}

function resendNow(entry: OutboxEntry, now: number): OutboxEntry | undefined {
  if (entry.batch !== undefined || entry.body === "") return undefined;
  if (entry.everSent && now >= entry.expiresAt) return undefined;
  const due =
    entry.state === EntryState.sending ||
    entry.state === EntryState.queued ||
    (entry.state === EntryState.streaming && !entry.cursor.acked) ||
    (entry.state === EntryState.retryWait && entry.nextAttemptAt !== null && entry.nextAttemptAt <= now);
  if (!due) return undefined;
  const recovered = reduceEntry(entry, { type: "recovered-on-start", at: now });
  const next = reduceEntry(recovered, { type: "attempt-started", at: now });
  return next.state === EntryState.sending && next !== recovered ? next : undefined;
}
