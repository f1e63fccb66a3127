import type { ConnectionState } from "@agui-outbox/core";
import { useStore } from "zustand";
import { useOutboxClient } from "./use-outbox-client";

/** The link to the agent (`link.name`), the rules in force, the online hint and leadership. */
export function useConnection(): ConnectionState {
  return useStore(useOutboxClient().connection);
}
