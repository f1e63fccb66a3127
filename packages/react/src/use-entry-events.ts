import { type EntryEvent, watchEntries } from "@agui-outbox/core";
import { useEffect, useRef } from "react";
import { useOutboxClient } from "./use-outbox-client";

/**
 * Calls `listener` for every entry event of the provider's client (added,
 * changed, verdict, removed): one place for toasts or logging, like
 * subscribing to TanStack Query's mutation cache. The latest listener is used
 * without re-subscribing.
 */
export function useEntryEvents(listener: (event: EntryEvent) => void): void {
  const client = useOutboxClient();
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => watchEntries(client.outbox, (event) => latest.current(event)), [client]);
}
