import type { ClientParts, StartedClient } from "./client-parts";

/**
 * `clear(namespace)`: writers stop, writes under way land, then storage is wiped; a later write
 * is refused by compare-and-set. The sending tab then starts again, empty.
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
