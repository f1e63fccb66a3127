import type { OutboxClient } from "@agui-outbox/core";
import { useContext } from "react";
import { OutboxContext, type OutboxContextValue } from "./outbox-context";

/** The provider's context; throws a clear error outside an `OutboxProvider`. */
export function useOutboxContext(): OutboxContextValue {
  const value = useContext(OutboxContext);
  if (!value) throw new Error("@agui-outbox/react hooks must be used inside an <OutboxProvider>.");
  return value;
}

/** The core client given to the nearest `OutboxProvider`. */
export function useOutboxClient(): OutboxClient {
  return useOutboxContext().client;
}
