import type { FetchLike, Signal } from "@agui-outbox/core";

const STORAGE_KEY = "agui-outbox-demo:offline";

/**
 * The demo's "offline" toggle. It wraps the client's fetch so every request
 * fails while switched on (in-flight ones are cut, as a real network loss
 * would), and exposes an `online` Signal for the client. It survives a reload
 * (localStorage), so "offline across a reload" can be shown.
 */
export class OfflineSwitch {
  readonly #listeners = new Set<(online: boolean) => void>();
  readonly #inFlight = new Set<AbortController>();
  #offline: boolean;

  constructor() {
    this.#offline = globalThis.localStorage?.getItem(STORAGE_KEY) === "1";
    globalThis.addEventListener?.("online", () => this.#emit());
    globalThis.addEventListener?.("offline", () => this.#emit());
  }

  get offline(): boolean {
    return this.#offline;
  }

  setOffline(offline: boolean): void {
    if (offline === this.#offline) return;
    this.#offline = offline;
    globalThis.localStorage?.setItem(STORAGE_KEY, offline ? "1" : "0");
    if (offline)
      for (const controller of this.#inFlight)
        controller.abort(new TypeError("Network is offline (demo toggle)."));
    this.#emit();
  }

  #online(): boolean {
    return !this.#offline && (typeof navigator === "undefined" || navigator.onLine !== false);
  }

  #emit(): void {
    const online = this.#online();
    for (const listener of this.#listeners) listener(online);
  }

  readonly online: Signal = {
    get: () => this.#online(),
    subscribe: (listener) => {
      this.#listeners.add(listener);
      return () => this.#listeners.delete(listener);
    },
  };

  /** A fetch that fails like a dropped network while the toggle is on. */
  readonly fetch: FetchLike = async (input, init) => {
    if (this.#offline) throw new TypeError("Failed to fetch: the network is offline (demo toggle).");
    const controller = new AbortController();
    this.#inFlight.add(controller);
    const signal = init?.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
    const done = (): void => {
      this.#inFlight.delete(controller);
    };
    signal.addEventListener("abort", done, { once: true });
    let response: Response;
    try {
      response = await globalThis.fetch(input, { ...init, signal });
    } catch (error) {
      done();
      throw error;
    }
    if (!response.body) {
      done();
      return response;
    }
    // Keep the request cuttable until its body (an event stream) is fully read.
    const body = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: done }));
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

  /** Subscribe to toggle changes (for the UI). */
  subscribe(listener: () => void): () => void {
    const wrapped = () => listener();
    this.#listeners.add(wrapped);
    return () => this.#listeners.delete(wrapped);
  }
}
