/** Test-only helpers: a core client over a fake agent, rendered inside the provider. */
import { createOutboxClient, type OutboxClient, type OutboxClientOptions } from "@agui-outbox/core";
import { manualSignal } from "@agui-outbox/core/testing";
import { configure, render } from "@testing-library/react";
import type { ReactNode } from "react";
import { OutboxProvider } from "../outbox-provider";
import type { FakeAgent } from "./fake-agent";

// `waitFor` waits for what the page shows; its default 1 s deadline is a clock, not an
// event, and two test runs sharing a loaded machine missed it with the answer on its way.
configure({ asyncUtilTimeout: 10_000 });

export { manualSignal };

export const FIXED_NOW = 1_800_000_000_000;

export function makeClient(agent: FakeAgent, options: Partial<OutboxClientOptions> = {}): OutboxClient {
  return createOutboxClient({
    url: "/agent",
    namespace: "user-1",
    storage: "memory",
    requestPersistence: false,
    ...options,
    deps: {
      fetch: agent.fetch,
      // No jitter: the retry delay is exactly the server's Retry-After.
      random: () => 0,
      online: manualSignal(true),
      visible: manualSignal(true),
      ...options.deps,
    },
  });
}

export function renderWithClient(client: OutboxClient, ui: ReactNode, agent?: FakeAgent) {
  return render(
    <OutboxProvider client={client} url="/agent" {...(agent ? { fetch: agent.fetch } : {})}>
      {ui}
    </OutboxProvider>,
    // StrictMode mounts, unmounts and mounts again: what an app in development does.
    { reactStrictMode: true },
  );
}
