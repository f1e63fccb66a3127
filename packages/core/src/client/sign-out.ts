import type { ClientParts, StartedClient } from "./client-parts";

/**
 * `clear(namespace)`: a sign-out that stays signed out. Everything that could
 * write stops, the writes already under way land, and only then is storage
 * wiped. A write that still comes later (another tab's) is refused by
 * compare-and-set: the entry is gone. The sending tab then starts again, empty.
 */
export async function signOut(parts: ClientParts, { store, engine }: StartedClient): Promise<void> {
  const { background } = parts;
  engine.deactivate();
  background.deactivate();
  await Promise.all([engine.drain(), background.drain()]);
  await store.clear(parts.namespace);
  parts.ownKeys.clear();
  await engine.load();
  parts.threads.clear();
  await background.reset();
  if (parts.tabs.state.leader) {
    await engine.activate();
    background.activate();
  }
}
