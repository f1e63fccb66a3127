import type { ClientParts, StartedClient } from "./client-parts";

/**
 * `clear(namespace)`: a sign-out that stays signed out. Everything that could
 * write stops, the writes already under way land, and only then is storage
 * wiped. A write that still comes later (another tab's) is refused by
 * compare-and-set: the entry is gone. The sending tab then starts again, empty.
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
