import type { OutboxState } from "@agui-outbox/core";
import { useStore } from "zustand";
import { useOutboxClient } from "./use-outbox-client";

/** Every entry of the namespace (oldest first), whether storage is durable, and readiness: for a tray. */
export function useOutbox(): OutboxState {
  return useStore(useOutboxClient().outbox);
}
