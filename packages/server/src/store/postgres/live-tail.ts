import { Client, type ClientConfig } from "pg";
import { quoteIdent } from "./migrations";

/**
 * The live tail of every run's log: one `LISTEN` connection per store, opened
 * on the first watch; each `NOTIFY` (sent by an append on any replica, with
 * the run id as payload) wakes that run's watchers.
 */
export class LiveTail {
  readonly #client: () => Client;
  readonly #channel: string;
  readonly #watchers = new Map<string, Set<() => void>>();
  #listener: Promise<Client> | undefined;

  constructor(clientConfig: ClientConfig, channel: string, deps: { client?: () => Client } = {}) {
    this.#client = deps.client ?? (() => new Client(clientConfig));
    this.#channel = channel;
  }

  async watch(runId: string, wake: () => void): Promise<() => void> {
    await this.#listen();
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

  async close(): Promise<void> {
    this.#watchers.clear();
    const listener = this.#listener;
    this.#listener = undefined;
    // A listener that never connected has nothing to close.
    if (listener !== undefined) await (await listener.catch(() => undefined))?.end();
  }

  /** One `LISTEN` connection per store, opened on the first watch; wakes the watchers of the run named. */
  #listen(): Promise<Client> {
    this.#listener ??= (async () => {
      const client = this.#client();
      client.on("notification", (message) => {
        const watchers = message.payload === undefined ? undefined : this.#watchers.get(message.payload);
        for (const wake of watchers ?? []) wake();
      });
      // A lost LISTEN connection must not crash the server: readers then end at their next check.
      client.on("error", () => {
        this.#listener = undefined;
      });
      await client.connect();
      await client.query(`LISTEN ${quoteIdent(this.#channel)}`);
      return client;
    })();
    return this.#listener;
  }
}
