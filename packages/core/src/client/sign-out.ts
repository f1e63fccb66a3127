import type { ClientParts, StartedClient } from "./client-parts";

/**
 * `clear(namespace)`: writers stop, writes under way land, then storage is wiped; a later write
 * is refused by compare-and-set. The sending tab then starts again, empty.
 */
export async function signOut(parts: ClientParts, { store, engine }: StartedClient): Promise<void> {
  const { plugins } = parts;
  engine.deactivate();
  plugins.deactivate();
  await Promise.all([engine.drain(), plugins.drain()]);
  await store.clear(parts.namespace);
  parts.ownKeys.clear();
  await engine.load();
  parts.threads.clear();
  await plugins.reset();
  if (parts.tabs.state.leader) {
    await engine.activate();
    plugins.activate();
  }
}
