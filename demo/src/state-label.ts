import { EntryState, type OutboxEntry } from "@agui-outbox/core";

/**
 * An entry's state as a word for a person: a state name is not one, and a delivered
 * rejection ran nothing, so it is "delivered", never "applied".
 */
export function stateLabel(entry: OutboxEntry): string {
  switch (entry.state) {
    case EntryState.queued:
      return "saved";
    case EntryState.held:
      return "waiting for the other answers";
    case EntryState.sending:
      return "sending";
    case EntryState.streaming:
      return "received";
    case EntryState.retryWait:
      return "will retry";
    case EntryState.stalled:
      return "waiting";
    case EntryState.paused:
      return "needs sign-in";
    case EntryState.applied:
      return entry.decision.kind === "approve" ? "applied" : "delivered";
    case EntryState.elsewhere:
      return "answered elsewhere";
    case EntryState.lost:
      return "outcome unknown";
    case EntryState.needsUser:
      return "needs you";
    case EntryState.expired:
      return "expired";
    default:
      return "kept";
  }
}
