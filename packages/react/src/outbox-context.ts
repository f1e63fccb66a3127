import type { FetchLike, OutboxClient } from "@agui-outbox/core";
import { createContext } from "react";

/** What the provider shares with the hooks. */
export interface OutboxContextValue {
  readonly client: OutboxClient;
  /** The agent endpoint the client talks to; capabilities are read from `{url}/capabilities`. */
  readonly url: string | undefined;
  /** Used for the hooks' own reads (capabilities). */
  readonly fetch: FetchLike;
}

export const OutboxContext = createContext<OutboxContextValue | null>(null);
