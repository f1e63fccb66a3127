import { randomUUID } from "node:crypto";
import { Client, type ClientConfig } from "pg";
import type { StoredFrame } from "../records";
import { quoteIdent } from "./migrations";

/** Where the `LISTEN` connection is; `reason` records the last failure. */
export type LiveTailState =
  | { readonly name: "idle" }
  | { readonly name: "connecting"; readonly attempt: number }
  | { readonly name: "listening" }
  | { readonly name: "waiting"; readonly attempt: number; readonly delayMs: number; readonly reason: string }
  | { readonly name: "failed"; readonly attempts: number; readonly reason: string }
  | { readonly name: "closed" };

export interface LiveTailDeps {
  /** A new, unconnected client. @default a `pg.Client` on the store's settings */
  readonly client: () => Client;
  readonly setTimeout: (run: () => void, ms: number) => unknown;
  readonly clearTimeout: (timer: unknown) => void;
  /** In [0, 1), for full-jitter backoff. @default Math.random */
  readonly random: () => number;
}

type Wake = (frames?: readonly StoredFrame[]) => void;

/** Connect attempts in one reconnect loop, and its full-jitter backoff (base doubling to a cap). */
const BUDGET = 10;
const BASE_MS = 250;
const CAP_MS = 30_000;

/**
 * The live tail of every run's log: one `LISTEN` connection per store, opened
 * on the first watch; each `NOTIFY` (sent by an append on any replica, with
 * `<writer> <runId>` as payload) wakes that run's watchers. This store's own
 * appends are handed to its watchers once committed ({@link deliver}), so their
 * notifications are skipped: no reader here reads back what it was just given.
 * Notifications sent while no connection listens are lost, so losing the
 * connection and regaining it both wake every watcher to re-read its log.
 *
 *   idle/failed ──watch──▶ connecting ──ok──▶ listening
 *                            ▲     │ refused        │ dropped (wakes all)
 *                      timer │     ▼                ▼
 *                            └── waiting ◀──────────┘
 *                                  │ BUDGET attempts refused
 *                                  ▼
 *                                failed (readers poll; the next watch tries again)
 */
export class LiveTail {
  readonly #deps: LiveTailDeps;
  readonly #channel: string;
  readonly #watchers = new Map<string, Set<Wake>>();
  /** Tags this store's appends' notifications (see {@link deliver}). */
  readonly writer = randomUUID();
  #state: LiveTailState = { name: "idle" };
  #client: Client | undefined;
  #connecting: Promise<void> = Promise.resolve();
  #timer: unknown;

  constructor(clientConfig: ClientConfig, channel: string, deps: Partial<LiveTailDeps> = {}) {
    this.#deps = {
      client: () => new Client(clientConfig),
      // A pending reconnect must not keep the process alive.
      setTimeout: (run, ms) => setTimeout(run, ms).unref(),
      clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
      random: Math.random,
      ...deps,
    };
    this.#channel = channel;
  }

  get state(): LiveTailState {
    return this.#state;
  }

  /** Resolves once listening, or once an attempt failed: until a reconnect, the reader's poll covers it. */
  async watch(runId: string, wake: Wake): Promise<() => void> {
    const name = this.#state.name;
    if (name === "closed") return () => {};
    if (name === "idle" || name === "failed") this.#connecting = this.#connect(1);
    await this.#connecting;
    let set = this.#watchers.get(runId);
    if (set === undefined) {
      set = new Set();
      this.#watchers.set(runId, set);
    }
    set.add(wake);
    return () => {
      const current = this.#watchers.get(runId);
      current?.delete(wake);
      if (current?.size === 0) this.#watchers.delete(runId);
    };
  }

  /** Hands frames this store committed (tagged {@link writer}) to the run's watchers here. */
  deliver(runId: string, frames: readonly StoredFrame[]): void {
    if (frames.length === 0) return;
    for (const wake of this.#watchers.get(runId) ?? []) wake(frames);
  }

  async close(): Promise<void> {
    this.#state = { name: "closed" };
    this.#watchers.clear();
    if (this.#timer !== undefined) this.#deps.clearTimeout(this.#timer);
    this.#timer = undefined;
    const client = this.#client;
    this.#client = undefined;
    // end() on a client being let go can only fail as the connection already did: nothing to record.
    await Promise.all([this.#connecting, client?.end().catch(() => {})]);
  }

  async #connect(attempt: number): Promise<void> {
    this.#state = { name: "connecting", attempt };
    const client = this.#deps.client();
    client.on("notification", (message) => {
      const payload = message.payload ?? "";
      const at = payload.indexOf(" ");
      // Our own append: its frames were handed over on commit.
      if (payload.slice(0, at) === this.writer) return;
      for (const wake of this.#watchers.get(payload.slice(at + 1)) ?? []) wake();
    });
    // A lost LISTEN connection must not crash the server: it is recorded and reconnected.
    client.on("error", (error) => this.#lost(client, error));
    client.on("end", () => this.#lost(client, new Error("the LISTEN connection ended")));
    try {
      await client.connect();
      await client.query(`LISTEN ${quoteIdent(this.#channel)}`);
    } catch (error) {
      // The connect's failure is what #retry records; end() on the failed client can only repeat it.
      void client.end().catch(() => {});
      if (this.#state.name === "connecting") this.#retry(attempt, error);
      return;
    }
    if (this.#state.name !== "connecting") {
      // Closed while connecting: the client is surplus, and an error ending it concerns no one.
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    this.#state = { name: "listening" };
    // Watchers registered before now may have missed appends while nothing listened.
    this.#wakeAll();
  }

  #lost(client: Client, error: Error): void {
    if (client !== this.#client) return;
    this.#client = undefined;
    // The loss itself is recorded by #retry below; ending the dead client adds nothing.
    void client.end().catch(() => {});
    this.#wakeAll();
    this.#retry(0, error);
  }

  /** Schedules attempt `failed + 1`, after a backoff, or records the loop as spent. */
  #retry(failed: number, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    if (failed >= BUDGET) {
      this.#state = { name: "failed", attempts: failed, reason };
      return;
    }
    const delayMs = Math.round(
      this.#deps.random() * Math.min(CAP_MS, BASE_MS * 2 ** Math.max(0, failed - 1)),
    );
    this.#state = { name: "waiting", attempt: failed + 1, delayMs, reason };
    this.#timer = this.#deps.setTimeout(() => {
      this.#timer = undefined;
      if (this.#state.name !== "waiting") return;
      // Nobody left to wake: the next watch connects.
      if (this.#watchers.size === 0) this.#state = { name: "idle" };
      else this.#connecting = this.#connect(failed + 1);
    }, delayMs);
  }

  #wakeAll(): void {
    for (const set of this.#watchers.values()) for (const wake of set) wake();
  }
}
