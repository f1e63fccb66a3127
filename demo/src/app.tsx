import { createOutboxClient, type OutboxClient } from "@agui-outbox/core";
import { backgroundRuns } from "@agui-outbox/core/background";
import { OutboxProvider } from "@agui-outbox/react";
import { QueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
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

/**
 * One client per signed-in user (the outbox namespace). Created in an effect so
 * a user switch disposes the old one, and React's double effects in
 * development never leave a disposed client on screen.
 */
function useDemoClient(user: string | null): OutboxClient | null {
  const [client, setClient] = useState<OutboxClient | null>(null);
  useEffect(() => {
    if (user === null) return;
    const created = createOutboxClient({
      url: AGENT_URL,
      namespace: `demo:${user}`,
      dbName: "agui-outbox-demo",
      backgroundRuns: backgroundRuns(),
      // The mock server's `identify` reads it: each demo user's threads and runs are theirs alone.
      // A real app sends its session (a cookie, a token) and its server verifies it.
      headers: () => ({ "x-demo-user": user }),
      deps: { fetch: offline.fetch, online: offline.online },
    });
    setClient(created);
    return () => {
      created.dispose();
      setClient(null);
    };
  }, [user]);
  return client;
}

export function App(): ReactNode {
  const [user, setUser] = useState(currentUser);
  const [threadId, setThreadId] = useState(currentThreadId);
  const client = useDemoClient(user);

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
  // and only then drop the session.
  const signOut = async () => {
    await client?.clear();
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
          onNewThread={newThread}
        />
      </header>
      {user === null ? (
        <main className="panel" aria-labelledby="signed-out-title" data-testid="signed-out">
          <h2 id="signed-out-title">Signed out</h2>
          <p className="muted">Your answers stored in this browser were deleted. Sign in to start again.</p>
        </main>
      ) : client ? (
        <OutboxProvider
          key={user}
          client={client}
          url={AGENT_URL}
          queryClient={queryClient}
          fetch={offline.fetch}
        >
          <ConnectionIndicator />
          <main className="columns">
            <ChatThread key={threadId} threadId={threadId} />
            <aside className="side">
              <OutboxTray />
              <BackgroundRunsPanel />
              <LedgerPanel />
              <ChaosPanel />
            </aside>
          </main>
        </OutboxProvider>
      ) : (
        <p className="muted">Starting…</p>
      )}
    </div>
  );
}
