import type { OutboxEntry } from "@agui-outbox/core";

/** Where a waiting entry stands, and why, for one status line with one countdown. */
export interface WaitingContext {
  /** Whole seconds until the next attempt (`useRetryCountdown`), or null. */
  readonly secondsLeft: number | null;
  /** False when the browser (or the app's offline signal) says there is no network. */
  readonly online: boolean;
}

function retrying(reason: string, secondsLeft: number | null): string {
  return secondsLeft !== null && secondsLeft > 0
    ? `${reason} — retrying in ${secondsLeft} s.`
    : `${reason} — retrying now.`;
}

/**
 * Why an answer is waiting, from the last failure the entry kept: "Server busy
 * (429) — retrying in 6 s". Offline outranks the failure: no attempt is made
 * until the network is back, so no countdown is shown.
 */
export function describeWaiting(entry: OutboxEntry, context: WaitingContext): string {
  if (!context.online) return "Offline — will send when back.";
  const error = entry.lastError;
  const status = error?.status;
  if (status === 429) return retrying("Server busy (429)", context.secondsLeft);
  if (status === 503) return retrying("Server unavailable (503)", context.secondsLeft);
  if (status !== undefined && status >= 500) return retrying(`Server error (${status})`, context.secondsLeft);
  if (status === 409) return retrying("The server is busy with this question (409)", context.secondsLeft);
  switch (error?.kind) {
    case "network":
      // Online, yet no response at all: the server is down or restarting.
      return retrying("Server restarting or unreachable", context.secondsLeft);
    case "stream_ended":
    case "stream_stalled":
      return retrying("The connection dropped", context.secondsLeft);
    case "not_event_stream":
    case "malformed_stream":
    case "invalid_json":
    case "invalid_event":
      return retrying("The server's answer was unreadable", context.secondsLeft);
    case "run_error":
      return retrying(
        error.code?.endsWith("_IN_PROGRESS")
          ? "The server is still working on an earlier attempt"
          : `The agent reported an error${error.code ? ` (${error.code})` : ""}`,
        context.secondsLeft,
      );
    default:
      return retrying("Not delivered yet", context.secondsLeft);
  }
}
