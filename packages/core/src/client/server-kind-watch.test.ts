import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { createStore } from "zustand/vanilla";
import { waitsOnNetwork } from "../delivery/network-wait";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import type { OutboxEntry } from "../outbox/entry";
import { type ConnectionState, initialConnectionState } from "./outbox-state";
import { PROBE_CAP_MS, ServerKindMachine } from "./server-kind";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const waiting = { key: "k", state: "retry_wait", lastError: { kind: ErrorKind.network } } as OutboxEntry;

function setup(answers: Array<"down" | "503" | "404" | "ok">) {
  let entries: OutboxEntry[] = [];
  const connection = createStore<ConnectionState>()(() => ({
    ...initialConnectionState,
    link: { name: "connected", serverKind: "contract" },
  }));
  const abort = new AbortController();
  let probes = 0;
  const returns: number[] = [];
  const capabilities = async () => {
    const answer = answers[Math.min(probes, answers.length - 1)];
    probes += 1;
    if (answer === "ok") return {};
    if (answer === "down") throw new OutboxError(ErrorKind.network, "fetch failed");
    throw new OutboxError(ErrorKind.http, "refused", { status: answer === "503" ? 503 : 404 });
  };
  const kind = new ServerKindMachine({
    namespace: "n",
    http: { capabilities } as never,
    deps: { timers: { setTimeout, clearTimeout }, random: () => 0.99, now: () => Date.now() } as never,
    connection,
    store: () => undefined,
    sink: { track: (promise: Promise<unknown>) => void promise.catch(() => {}) } as never,
    signal: abort.signal,
    onKnown: () => {},
    onAnswered: () => returns.push(probes),
    waiting: () => entries.some(waitsOnNetwork),
  });
  // What the client does on every outbox change.
  const setEntries = (next: OutboxEntry[]) => {
    entries = next;
    kind.watch();
  };
  return { setEntries, connection, abort, returns, probes: () => probes };
}

test("nothing waits on the network: no probe is asked", async () => {
  const probe = setup(["ok"]);
  probe.setEntries([{ ...waiting, lastError: { kind: ErrorKind.http } } as OutboxEntry]);
  await vi.advanceTimersByTimeAsync(60_000);
  expect(probe.probes()).toBe(0);
});

test("a 5xx or a network failure is not a return; a 404 is, within the cap each time", async () => {
  const probe = setup(["down", "503", "404"]);
  probe.setEntries([waiting]);
  await vi.advanceTimersByTimeAsync(0);
  // The record: the link says the server is not answering, with the next read's time.
  expect(probe.connection.getState().link.name).toBe("unreachable");
  await vi.advanceTimersByTimeAsync(PROBE_CAP_MS * 3);
  expect(probe.probes()).toBe(3);
  expect(probe.returns).toEqual([3]);
  // Answered: nothing more is read until an answer waits again.
  probe.setEntries([]);
  await vi.advanceTimersByTimeAsync(60_000);
  expect(probe.probes()).toBe(3);
});

test("the probes back off up to the cap, and stop when the client is disposed", async () => {
  const probe = setup(["down"]);
  probe.setEntries([waiting]);
  await vi.advanceTimersByTimeAsync(60_000);
  // Windows of 1, 2, then 4 s (random 0.99): about 16 probes in a minute, not hundreds.
  expect(probe.probes()).toBeGreaterThanOrEqual(14);
  expect(probe.probes()).toBeLessThanOrEqual(17);
  probe.abort.abort();
  const asked = probe.probes();
  await vi.advanceTimersByTimeAsync(60_000);
  expect(probe.probes()).toBe(asked);
  expect(probe.returns).toEqual([]);
});
