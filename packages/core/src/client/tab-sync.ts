import type { DeliveryEngine } from "../delivery/delivery-engine";
import type { OutboxEntry } from "../outbox/entry";
import type { OutboxStore } from "../outbox/outbox-store";
import type { EntryChangeTracker } from "../tabs/entry-changes";
import type { TabMessage } from "../tabs/tab-message";
import type { ThreadRegistry } from "../thread/thread-registry";
import { type ErrorSink, ErrorSource } from "./error-sink";
import type { Lifecycle } from "./lifecycle";
import type { AttachedPlugins } from "./plugins";

export interface TabSyncOptions {
  readonly lifecycle: Lifecycle;
  readonly sink: ErrorSink;
  readonly threads: ThreadRegistry;
  readonly changes: EntryChangeTracker;
  readonly engine: () => DeliveryEngine | undefined;
  readonly store: () => OutboxStore | undefined;
  readonly plugins: AttachedPlugins;
  readonly isLeader: () => boolean;
  readonly broadcast: (message: TabMessage) => void;
}

/** What this tab tells the others and does with what they tell it; early ones wait for the load. */
export class TabSync {
  readonly #options: TabSyncOptions;
  readonly #early: TabMessage[] = [];
  /** True while a change that is not to be announced is applied (one that came from another tab). */
  #applyingRemote = false;

  constructor(options: TabSyncOptions) {
    this.#options = options;
  }

  published(entries: readonly OutboxEntry[], key?: string, entry?: OutboxEntry): void {
    const { changes, broadcast } = this.#options;
    const { changed, removed } =
      key === undefined ? changes.observe(entries) : changes.observeEntry(key, entry);
    if (this.#applyingRemote) return;
    for (const one of changed) broadcast({ type: "entry-changed", entry: one });
    if (removed.length > 0) broadcast({ type: "entries-removed", keys: removed });
  }

  /** Applies a change without announcing it: it came from another tab, or has its own message. */
  silently(apply: () => void): void {
    this.#applyingRemote = true;
    try {
      apply();
    } finally {
      this.#applyingRemote = false;
    }
  }

  flushEarly(): void {
    for (const message of this.#early.splice(0)) this.onMessage(message);
  }

  onMessage(message: TabMessage): void {
    const { lifecycle, threads, plugins, sink } = this.#options;
    if (!lifecycle.isReady) {
      if (!lifecycle.isDisposed) this.#early.push(message);
      return;
    }
    const running = this.#options.engine();
    switch (message.type) {
      case "entry-changed":
        if (!running) return;
        this.silently(() => running.adopt(message.entry));
        if (["applied", "elsewhere", "lost"].includes(message.entry.state)) {
          threads.dropInterrupt(message.entry.threadId, message.entry.interruptId);
        }
        return;
      case "entry-added": {
        const store = this.#options.store();
        if (!running || !store) return;
        sink.track(
          store
            .get(message.key)
            // Unreadable now: the announced copy stands in until the next rescan.
            .catch(() => undefined)
            .then((stored) => this.silently(() => running.adopt(stored ?? message.entry))),
          ErrorSource.tabs,
        );
        return;
      }
      case "entries-removed":
        if (!running) return;
        this.silently(() => {
          for (const key of message.keys) running.forget(key);
        });
        return;
      case "background-changed":
        // The sending tab polled a run on: show what it stored (this tab does not poll).
        if (!this.#options.isLeader()) sink.track(plugins.resumeAll(), ErrorSource.background);
        return;
      case "thread-events":
        for (const event of message.events) threads.applyRemote(message.threadId, event);
        return;
      case "request":
        if (!running || !this.#options.isLeader()) return;
        if (message.request.kind === "retry-now")
          sink.track(running.retryNow(message.request.key), ErrorSource.delivery);
        if (message.request.kind === "retry-all") running.retryNetworkWaitsNow();
        if (message.request.kind === "resume-background")
          sink.track(plugins.resumeAll(), ErrorSource.background);
        if (message.request.kind === "resume-after-auth") {
          sink.track(running.resumeAfterAuth(), ErrorSource.delivery);
          sink.track(plugins.resumeAfterAuth(), ErrorSource.background);
        }
        return;
      default:
        return;
    }
  }
}
