import type { FetchLike, OutboxClient } from "@agui-outbox/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import type { ApprovalRenderers } from "./approval-renderer";
import { OutboxContext, type OutboxContextValue } from "./outbox-context";

export interface OutboxProviderProps {
  /** A client from `createOutboxClient`. The provider starts it; disposing stays the app's job. */
  readonly client: OutboxClient;
  /**
   * Where `useCapabilities()` reads capabilities from.
   * @deprecated The client's own `url` is used; pass one only to read another endpoint.
   * @default client.url
   */
  readonly url?: string;
  /**
   * Cards by tool name for `ApprovalList`: `{ deploy_change: DeployCard }`.
   * Tools without one get `DefaultApprovalCard`.
   * @default {}
   */
  readonly renderers?: ApprovalRenderers;
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
const NO_RENDERERS: ApprovalRenderers = {};

/**
 * Makes a core client available to the hooks and starts it once mounted, so
 * recovered answers resume sending as soon as the app renders.
 */
export function OutboxProvider(props: OutboxProviderProps): ReactNode {
  const { client, onStartError } = props;
  const url = props.url ?? client.url;
  const renderers = props.renderers ?? NO_RENDERERS;
  // One QueryClient for the provider's lifetime when the app brings none.
  const [ownQueryClient] = useState(() => props.queryClient ?? new QueryClient());
  const queryClient = props.queryClient ?? ownQueryClient;
  const fetch = props.fetch ?? defaultFetch;

  useEffect(() => {
    client.start().catch((error: unknown) => onStartError?.(error));
  }, [client, onStartError]);

  const value = useMemo<OutboxContextValue>(
    () => ({ client, url, fetch, renderers }),
    [client, url, fetch, renderers],
  );
  return (
    <QueryClientProvider client={queryClient}>
      {/* `.Provider`, not `<OutboxContext value>`: the latter is React 19 only. */}
      <OutboxContext.Provider value={value}>{props.children}</OutboxContext.Provider>
    </QueryClientProvider>
  );
}
