import { type BackgroundRunsPlugin, backgroundRuns } from "@agui-outbox/background";
import { createOutboxClient, EntryState, type OutboxClient, type OutboxEntry } from "@agui-outbox/core";
import { OutboxProvider } from "@agui-outbox/react";
import { OutboxDevtools } from "@agui-outbox/react/devtools";
import { QueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { BackgroundRunsPanel } from "./components/background-runs-panel";
import { ChaosPanel } from "./components/chaos-panel";
import { ChatThread } from "./components/chat-thread";
import { ConnectionIndicator } from "./components/connection-indicator";
import { ControlsBar } from "./components/controls-bar";
import { LedgerPanel } from "./components/ledger-panel";
import { OutboxTray } from "./components/outbox-tray";
import { currentUser, rememberUser } from "./demo-user";
import { OfflineSwitch } from "./offline-switch";
import { currentThreadId, rememberThreadId, startNewThread } from "./thread-id";

const AGENT_URL = "/agent";
const offline = new OfflineSwitch();
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1 } } });

interface DemoClient {
  readonly client: OutboxClient;
  readonly background: BackgroundRunsPlugin;
}

/**
 * One client per signed-in user (the outbox namespace), with its background runs.
 * Created in an effect so a user switch disposes the old one, and React's double
 * effects in development never leave a disposed client on screen.
 */
function useDemoClient(user: string | null): DemoClient | null {
  const [demo, setDemo] = useState<DemoClient | null>(null);
  useEffect(() => {
    if (user === null) return;
    const background = backgroundRuns();
    const created = createOutboxClient({
      url: AGENT_URL,
      namespace: `demo:${user}`,
      dbName: "agui-outbox-demo",
      plugins: [background],
      // The mock server's `identify` reads it: each demo user's threads and runs are theirs alone.
      // A real app sends its session (a cookie, a token) and its server verifies it.
      headers: () => ({ "x-demo-user": user }),
      deps: { fetch: offline.fetch, online: offline.online },
    });
    setDemo({ client: created, background });
    return () => {
      created.dispose();
      setDemo(null);
    };
  }, [user]);
  return demo;
}

const NO_ENTRIES: readonly OutboxEntry[] = [];
// Answers waiting on this device. One in flight or streaming is the server's already:
// discarding it here would not take it back, so sign-out does not offer to.
const WAITING: ReadonlySet<string> = new Set([
  EntryState.queued,
  EntryState.held,
  EntryState.retryWait,
  EntryState.stalled,
  EntryState.paused,
]);

/** The answers of this client's user still waiting on this device to be sent. */
function useUnsentAnswers(client: OutboxClient | null): readonly OutboxEntry[] {
  const entries = useSyncExternalStore(
    (listener) => client?.outbox.subscribe(listener) ?? (() => {}),
    () => client?.outbox.getState().entries ?? NO_ENTRIES,
  );
  return useMemo(() => entries.filter((entry) => WAITING.has(entry.state)), [entries]);
}

/** What the signed-out page says: what became of the answers, when this page knows. */
function signedOutText(keptBy: { user: string; count: number } | null | undefined): string {
  if (keptBy === undefined) return "Sign in to continue.";
  if (keptBy === null) return "Your answers stored in this browser were deleted. Sign in to start again.";
  const answers = keptBy.count === 1 ? "1 unsent answer is" : `${keptBy.count} unsent answers are`;
  return `${answers} kept in this browser and will be sent when ${keptBy.user} signs in again.`;
}

export function App(): ReactNode {
  const [user, setUser] = useState(currentUser);
  const [threadId, setThreadId] = useState(currentThreadId);
  const demo = useDemoClient(user);
  const client = demo?.client ?? null;
  const unsent = useUnsentAnswers(client);
  // Set at sign-out: null when the answers were wiped; undefined after a reload (not known).
  const [keptBy, setKeptBy] = useState<{ user: string; count: number } | null | undefined>(undefined);

  useEffect(() => {
    const onHashChange = () => setThreadId(currentThreadId());
    globalThis.addEventListener("hashchange", onHashChange);
    return () => globalThis.removeEventListener("hashchange", onHashChange);
  }, []);

  const changeUser = (next: string | null) => {
    rememberUser(next);
    setUser(next);
  };
  // What an app does on sign-out: wipe the user's outbox first (the client stops
  // delivery, lets writes under way land, then deletes every entry of the namespace),
  // and only then drop the session. Kept answers stay in the user's namespace; the
  // client of their next sign-in sends them.
  const signOut = async (keep: boolean) => {
    if (!keep) await client?.clear();
    setKeptBy(keep && user !== null ? { user, count: unsent.length } : null);
    changeUser(null);
  };
  const newThread = () => setThreadId(startNewThread());
  useEffect(() => rememberThreadId(threadId), [threadId]);

  return (
    <div className="layout">
      <header className="header">
        <h1>agui-outbox demo</h1>
        <ControlsBar
          offline={offline}
          user={user}
          onUserChange={changeUser}
          onSignOut={client ? signOut : undefined}
          unsent={unsent}
          onNewThread={newThread}
        />
      </header>
      {user === null ? (
        <main className="panel" aria-labelledby="signed-out-title" data-testid="signed-out">
          <h2 id="signed-out-title">Signed out</h2>
          <p className="muted" data-testid="signed-out-text">
            {signedOutText(keptBy)}
          </p>
        </main>
      ) : demo ? (
        <OutboxProvider
          key={user}
          client={demo.client}
          url={AGENT_URL}
          queryClient={queryClient}
          fetch={offline.fetch}
        >
          <ConnectionIndicator />
          <main className="columns">
            <ChatThread key={threadId} threadId={threadId} background={demo.background} />
            <aside className="side">
              <OutboxTray />
              <BackgroundRunsPanel background={demo.background} />
              <LedgerPanel />
              <ChaosPanel />
              <OutboxDevtools />
            </aside>
          </main>
        </OutboxProvider>
      ) : (
        <p className="muted">Starting…</p>
      )}
    </div>
  );
}
