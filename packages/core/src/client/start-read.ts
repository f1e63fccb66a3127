import type { DeliveryEngine } from "../delivery/delivery-engine";
import { firstResend } from "../delivery/first-resend";
import type { OutboxStore } from "../outbox/outbox-store";
import { isServerKind, SERVER_KIND_META_ID, type ServerKindMachine } from "./server-kind";

export interface StartReadContext {
  readonly namespace: string;
  readonly store: OutboxStore;
  readonly engine: DeliveryEngine;
  readonly kind: ServerKindMachine;
  readonly now: () => number;
  /** The tab holds the lock (its first role is known when this runs). */
  readonly isLeader: () => boolean;
}

/**
 * The start's read; true when a kind was cached. With a cached kind the sending tab reads and
 * writes its first resend's `sending` in one transaction, held for activation; followers, and a
 * start whose transaction failed or is missing, read apart.
 */
export async function readStorageAtStart(context: StartReadContext): Promise<boolean> {
  const { store, engine, kind } = context;
  if (context.isLeader() && store.readAtStart) {
    try {
      const read = await store.readAtStart({
        namespace: context.namespace,
        metaId: SERVER_KIND_META_ID,
        firstCommit: (meta, entries) =>
          isServerKind(meta) ? firstResend(entries, context.now()) : undefined,
      });
      engine.hold(read.entries, read.commit?.committed ? read.commit.entry : undefined);
      return kind.adoptCached(read.meta);
    } catch {
      // Nothing written: read apart, where an unreadable cache is no cache.
    }
  }
  const [cached, open] = await Promise.all([
    kind.loadCached(store),
    store.listByNamespace(context.namespace, "open"),
  ]);
  engine.hold(open);
  return cached;
}
