import { isAbsentRoute } from "@agui-outbox/core";
import {
  type AgentCapabilities,
  AgentRoute,
  MetadataKey,
  parseRecoveryCapability,
  type RecoveryCapability,
  readCapabilities,
} from "@agui-outbox/core/protocol";
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useStore } from "zustand";
import { useOutboxContext } from "./use-outbox-client";

/**
 * What the agent says it can do, and the recovery contract it follows (null: degraded
 * rules). A server with no capabilities route at all (Agent Framework's endpoint answers
 * 404) declares nothing: `agent` is empty and `recovery` null.
 */
export interface Capabilities {
  readonly agent: AgentCapabilities;
  readonly recovery: RecoveryCapability | null;
}

/**
 * Reads `GET {url}/capabilities` once per client url and server kind through react-query: what the
 * agent declares (`agent`) and the contract's retention windows (`recovery`).
 * Which rules are in force is not read here: `useConnection().serverKind` is the
 * one source of server kind (the client decides it from the same route).
 */
export function useCapabilities(): UseQueryResult<Capabilities> {
  const { client, url, fetch } = useOutboxContext();
  // Read again when the client detects another kind of server under the page.
  const serverKind = useStore(client.connection, (state) => state.serverKind);
  const query = useQuery({
    queryKey: ["agui-outbox", "capabilities", url, serverKind],
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }): Promise<Capabilities> => {
      const response = await fetch(`${url.replace(/\/$/, "")}${AgentRoute.capabilities}`, { signal });
      if (isAbsentRoute(response.status)) return { agent: {}, recovery: null };
      if (!response.ok) throw new Error(`The agent answered HTTP ${response.status} for its capabilities.`);
      // Parsed as the client parses them: by hand for a contract server's document, so
      // a page showing capabilities does not load zod (readCapabilities).
      const agent = await readCapabilities(await response.json());
      return { agent, recovery: parseRecoveryCapability(agent.custom?.[MetadataKey.recovery]) ?? null };
    },
  });
  // A read that failed while offline is tried again once the link is back.
  const connected = useStore(client.connection, (state) => state.link.name === "connected");
  const { isError, refetch } = query;
  useEffect(() => {
    if (connected && isError) void refetch();
  }, [connected, isError, refetch]);
  return query;
}
