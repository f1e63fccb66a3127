// Entries a page writes into a database before it times anything: what an app's
// storage holds after many answers. Shared by the start and enqueue pages.
import { openDB } from "idb";
import { EntryState, type OutboxEntry } from "../../packages/core/src/outbox/entry.ts";

export interface SeedOptions {
  readonly namespace: string;
  readonly count: number;
  /** Size of each record's body, as an answer's exact request bytes. */
  readonly bodyBytes: number;
  /** The state of the last entry (the others are applied): a queued one is recovered at start. */
  readonly lastState?: EntryState;
}

/** `count` entries written in one transaction into `dbName`'s `entries` store, which must exist. */
export async function seedEntries(dbName: string, options: SeedOptions): Promise<void> {
  const db = await openDB(dbName);
  const tx = db.transaction("entries", "readwrite");
  const body = JSON.stringify({ padding: "x".repeat(options.bodyBytes) });
  const now = Date.now();
  for (let index = 0; index < options.count; index += 1) {
    const entry: OutboxEntry = {
      key: `k-${index}`,
      namespace: options.namespace,
      threadId: `t-${index % 500}`,
      interruptId: `i-${index}`,
      runId: `run-${index}`,
      body,
      decision: { kind: "approve" },
      state: index === options.count - 1 ? (options.lastState ?? EntryState.applied) : EntryState.applied,
      attempts: 0,
      nextAttemptAt: null,
      cursor: { runId: `run-${index}`, lastSeq: 0, acked: false },
      lastError: null,
      verdictDetail: null,
      everSent: false,
      createdAt: now - options.count + index,
      updatedAt: now,
      expiresAt: now + 23 * 3_600_000,
    };
    void tx.store.put(entry);
  }
  await tx.done;
  db.close();
}
