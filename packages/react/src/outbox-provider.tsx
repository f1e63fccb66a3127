import type { FetchLike, OutboxClient } from "@agui-outbox/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { OutboxContext, type OutboxContextValue } from "./outbox-context";

export interface OutboxProviderProps {
  /** A client from `createOutboxClient`. The provider starts it; disposing stays the app's job. */
  readonly client: OutboxClient;
  /**
   * The agent endpoint the client was created with. Needed by `useCapabilities()`
   * only (the core client does not expose its url).
   */
  readonly url?: string;
  /**
   * The react-query client for capabilities and hydration.
   * @default a new `QueryClient` owned by the provider
   */
  readonly queryClient?: QueryClient;
  /**
   * Fetch for the hooks' own reads (capabilities).
   * @default `globalThis.fetch`
   */
  readonly fetch?: FetchLike;
  /** Called when `client.start()` rejects (for example after `dispose()`). */
  readonly onStartError?: (error: unknown) => void;
  readonly children?: ReactNode;
}

const defaultFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

/**
 * Makes a core client available to the hooks and starts it once mounted, so
 * recovered answers resume sending as soon as the app renders.
 */
export function OutboxProvider(props: OutboxProviderProps): ReactNode {
  const { client, url, onStartError } = props;
  // One QueryClient for the provider's lifetime when the app brings none.
  const [ownQueryClient] = useState(() => props.queryClient ?? new QueryClient());
  const queryClient = props.queryClient ?? ownQueryClient;
  const fetch = props.fetch ?? defaultFetch;

  useEffect(() => {
    client.start().catch((error: unknown) => onStartError?.(error));
  }, [client, onStartError]);

  const value = useMemo<OutboxContextValue>(() => ({ client, url, fetch }), [client, url, fetch]);
  return (
    <QueryClientProvider client={queryClient}>
      {/* `.Provider`, not `<OutboxContext value>`: the latter is React 19 only. */}
      <OutboxContext.Provider value={value}>{props.children}</OutboxContext.Provider>
    </QueryClientProvider>
  );
}
