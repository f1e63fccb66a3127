import { ErrorKind } from "../errors/outbox-error";
import { EntryState, type OutboxEntry } from "../outbox/entry";

/** An answer that waits only because the network failed: what the server's return ends. */
export function waitsOnNetwork(entry: OutboxEntry): boolean {
  return entry.state === EntryState.retryWait && entry.lastError?.kind === ErrorKind.network;
}
