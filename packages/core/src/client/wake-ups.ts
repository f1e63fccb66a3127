import type { DeliveryEngine } from "../delivery/delivery-engine";
import { EntryState } from "../outbox/entry";
import type { ClientParts } from "./client-parts";
import { ErrorSource } from "./error-sink";
import type { Leadership } from "./leadership";
import type { Lifecycle } from "./lifecycle";

/*
 * What makes a started tab look again, so nothing waits for a reload: online, visible, and the
 * sending tab reading storage again (a hello, the slow tick, a reopened database).
 */
export function rescanStorage(
  parts: ClientParts,
  lifecycle: Lifecycle,
  engine: DeliveryEngine | undefined,
): void {
  if (!lifecycle.isReady || lifecycle.isDisposed || !parts.tabs.state.leader) return;
  if (engine) parts.sink.track(engine.rescan(), ErrorSource.storage);
  parts.sink.track(parts.plugins.resumeAll(), ErrorSource.background);
}

/** Back in view or online: threads with open questions are read, so answers given elsewhere show. */
function readOpenThreads(parts: ClientParts, lifecycle: Lifecycle, engine: DeliveryEngine | undefined): void {
  if (!lifecycle.isReady || lifecycle.isDisposed) return;
  const { threads, runner, sink } = parts;
  const entries = parts.outbox.getState().entries;
  const threadsOf = (states: readonly string[]) =>
    new Set(entries.filter((entry) => states.includes(entry.state)).map((entry) => entry.threadId));
  const held = threadsOf([EntryState.held]);
  // A thread whose answer is on the wire is read by its delivery.
  const sending = threadsOf([EntryState.sending, EntryState.streaming]);
  for (const threadId of threads.threadIds()) {
    if (sending.has(threadId)) continue;
    if (!held.has(threadId) && threads.get(threadId).pendingInterrupts.length === 0) continue;
    const settled = runner.hydrate(threadId).then(() => engine?.settleClosed(threadId));
    sink.track(settled, ErrorSource.thread);
  }
}

/** Online or visible: open threads are read again, and the sending tab's network waits go now. */
export function watchOnlineAndVisible(
  parts: ClientParts,
  lifecycle: Lifecycle,
  leadership: Leadership,
  engine: DeliveryEngine | undefined,
): void {
  const { deps, connection, tabs } = parts;
  const retryNetworkWaits = () => {
    leadership.retryNow();
    engine?.retryNetworkWaitsNow();
  };
  lifecycle.onDispose(
    deps.online.subscribe((online) => {
      connection.setState({ online });
      if (!online) {
        connection.setState({ link: { name: "offline" } });
        return;
      }
      connection.setState({ link: { name: "connected", serverKind: parts.kind.current() } });
      readOpenThreads(parts, lifecycle, engine);
      if (tabs.state.leader) retryNetworkWaits();
    }),
  );
  lifecycle.onDispose(
    deps.visible.subscribe((visible) => {
      if (!visible) return;
      readOpenThreads(parts, lifecycle, engine);
      if (!tabs.state.leader) return;
      retryNetworkWaits();
      rescanStorage(parts, lifecycle, engine);
    }),
  );
}
