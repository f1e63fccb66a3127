import { DeliveryEngine } from "../delivery/delivery-engine";
import type { OutboxStore } from "../outbox/outbox-store";
import { DEFAULT_MAX_EVENT_BYTES } from "../stream/read-event-stream";
import { DEFAULT_STALL_TIMEOUT_MS } from "../stream/watchdog";
import type { ClientParts } from "./client-parts";
import { ErrorSource } from "./error-sink";

/** The delivery engine on the opened store, publishing to the outbox state and the other tabs. */
export function createClientEngine(init: ClientParts, store: OutboxStore): DeliveryEngine {
  const { kind, runner, tabSync, connection, options } = init;
  return new DeliveryEngine({
    namespace: init.namespace,
    store,
    http: init.http,
    threads: init.threads,
    deps: init.deps,
    serverKind: () => kind.current(),
    kindKnown: () => kind.known(),
    onKindContradicted: (reason) => kind.contradicted(reason),
    hydrate: (threadId) => runner.hydrate(threadId),
    publish: (entries, key, entry) => {
      init.outbox.setState({ entries });
      tabSync.published(entries, key, entry);
    },
    onPaused: (entry) => {
      connection.setState({ link: { name: "paused", reason: "unauthorized" } });
      options.onAuthRequired?.(entry);
    },
    onError: (error) => init.sink.report(error, ErrorSource.delivery),
    stallTimeoutMs: options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
    maxEventBytes: options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES,
    retry: options.retry ?? {},
  });
}
