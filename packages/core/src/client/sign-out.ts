import type { DeliveryEngine } from "../delivery/delivery-engine";
import type { OutboxStore } from "../outbox/outbox-store";
import type { ThreadRegistry } from "../thread/thread-registry";
import type { BackgroundRunner } from "./background-plugin";

export interface SignOutParts {
  readonly namespace: string;
  readonly store: OutboxStore;
  readonly engine: DeliveryEngine;
  readonly background: BackgroundRunner;
  readonly threads: ThreadRegistry;
  /** The keys of the answers this tab gave, forgotten with them. */
  readonly ownKeys: Set<string>;
  readonly isLeader: () => boolean;
}

/**
 * `clear(namespace)`: a sign-out that stays signed out. Everything that could
 * write stops, the writes already under way land, and only then is storage
 * wiped. A write that still comes later (another tab's) is refused by
 * compare-and-set: the entry is gone. The sending tab then starts again, empty.
 */
export async function signOut(parts: SignOutParts): Promise<void> {
  const { store, engine, background } = parts;
  engine.deactivate();
  background.deactivate();
  await Promise.all([engine.drain(), background.drain()]);
  await store.clear(parts.namespace);
  parts.ownKeys.clear();
  await engine.load();
  parts.threads.clear();
  await background.reset();
  if (parts.isLeader()) {
    await engine.activate();
    background.activate();
  }
}
