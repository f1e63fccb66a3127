import type { FetchLike, OutboxClient } from "@agui-outbox/core";
import { createContext } from "react";
import type { ApprovalRenderers } from "./approval-renderer";

/** What the provider shares with the hooks. */
export interface OutboxContextValue {
  readonly client: OutboxClient;
  /** The agent endpoint the client talks to; capabilities are read from `{url}/capabilities`. */
  readonly url: string;
  /** Used for the hooks' own reads (capabilities). */
  readonly fetch: FetchLike;
  /** Cards by tool name, for `ApprovalList`. */
  readonly renderers: ApprovalRenderers;
}

export const OutboxContext = createContext<OutboxContextValue | null>(null);
