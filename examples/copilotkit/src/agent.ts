import { DurableHttpAgent } from "@agui-outbox/agent";

/** The thread lives in the URL (`?thread=…`), so a reload opens the same conversation. */
export function threadFromUrl(): string {
  const url = new URL(window.location.href);
  let threadId = url.searchParams.get("thread");
  if (!threadId) {
    threadId = `thread-${crypto.randomUUID()}`;
    url.searchParams.set("thread", threadId);
    window.history.replaceState(null, "", url);
  }
  return threadId;
}

// The one line that changes in a CopilotKit app: this agent instead of an HttpAgent.
export const agent = new DurableHttpAgent({
  url: "/agent",
  threadId: threadFromUrl(),
  namespace: "example-user",
});

declare global {
  interface Window {
    /** Every run the agent's subscribers saw, for the end-to-end tests to verify. */
    __aguiRuns?: unknown[][];
  }
}

const runs: unknown[][] = [];
window.__aguiRuns = runs;
agent.subscribe({
  onEvent: ({ event }) => {
    if (event.type === "RUN_STARTED") runs.push([]);
    runs.at(-1)?.push(event);
  },
});
