import { expect, test } from "vitest";
import { createStore } from "zustand/vanilla";
import type { OutboxEntry } from "../outbox/entry";
import { type EntryEvent, watchEntries } from "./entry-events";
import { initialOutboxState, type OutboxState } from "./outbox-state";

function entry(key: string, state: OutboxEntry["state"]): OutboxEntry {
  return {
    key,
    namespace: "n",
    threadId: "t",
    interruptId: `i-${key}`,
    runId: "r",
    body: "{}",
    decision: { kind: "approve" },
    state,
    attempts: 0,
    nextAttemptAt: null,
    cursor: { runId: "r", lastSeq: 0, acked: false },
    lastError: null,
    verdictDetail: null,
    everSent: false,
    createdAt: 0,
    updatedAt: 0,
    expiresAt: 1,
  };
}

test("watchEntries reports added, changed, verdict and removed, once each, from subscription on", () => {
  const store = createStore<OutboxState>(() => ({
    ...initialOutboxState,
    entries: [entry("old", "applied")],
  }));
  const seen: string[] = [];
  const stop = watchEntries(store, (event: EntryEvent) =>
    seen.push(`${event.type}:${event.entry.key}:${event.entry.state}`),
  );
  const a = entry("a", "queued");
  store.setState({ entries: [entry("old", "applied"), a] });
  store.setState({ entries: [entry("old", "applied"), { ...a, state: "sending" }] });
  // The same state again (a counter moved): no event.
  store.setState({ entries: [entry("old", "applied"), { ...a, state: "sending", attempts: 1 }] });
  store.setState({ entries: [entry("old", "applied"), { ...a, state: "applied" }] });
  store.setState({ entries: [{ ...a, state: "applied" }] });
  stop();
  store.setState({ entries: [] });
  expect(seen).toEqual(["added:a:queued", "changed:a:sending", "verdict:a:applied", "removed:old:applied"]);
});
