import type { ClientParts } from "./client-parts";
import type { OutboxClient } from "./client-types";
import { resendAsMessage } from "./resend-as-message";
import { signOut } from "./sign-out";

type ClientCommands = Pick<
  OutboxClient,
  "entryFor" | "retryNow" | "discard" | "resendAsMessage" | "resumeAfterAuth" | "clear"
>;

/** What the app asks about its answers; the sending tab acts, others ask it by channel. */
export function clientCommands(init: ClientParts): ClientCommands {
  const { namespace, tabs, started } = init;
  const isLeader = () => tabs.state.leader;
  return {
    entryFor(threadId, interruptId, entries = init.outbox.getState().entries) {
      const matching = entries.filter(
        (entry) => entry.threadId === threadId && entry.interruptId === interruptId,
      );
      // Each tab shows its own truth: its own answer, else the newest.
      return matching.findLast((entry) => init.ownKeys.has(entry.key)) ?? matching.at(-1);
    },
    async retryNow(key) {
      const { engine } = await started();
      if (isLeader()) await engine.retryNow(key);
      else tabs.broadcast({ type: "request", request: { kind: "retry-now", key } });
    },
    async discard(key) {
      const { store, engine } = await started();
      await store.delete(key);
      engine.forget(key);
    },
    async resendAsMessage(key, text) {
      return resendAsMessage(init, await started(), key, text);
    },
    async resumeAfterAuth() {
      const { engine } = await started();
      init.connection.setState({ link: { name: "connected", serverKind: init.kind.current() } });
      if (isLeader()) {
        await engine.resumeAfterAuth();
        await init.plugins.resumeAfterAuth();
      } else {
        tabs.broadcast({ type: "request", request: { kind: "resume-after-auth" } });
      }
    },
    async clear(target = namespace) {
      const opened = await started();
      if (target === namespace) await signOut(init, opened);
      else await opened.store.clear(target);
    },
  };
}
