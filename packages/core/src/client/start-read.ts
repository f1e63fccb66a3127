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
 * The start's read of storage; true when a server kind was cached by an
 * earlier start. The sending tab reads the cached kind and the entries and
 * writes its first recovered resend's `sending` in one transaction (with a kind
 * cached; without one, nothing is written and the resend waits for
 * capabilities), and the engine holds that resend to post on activation. A
 * follower reads them apart, and so does a start whose one transaction failed
 * or whose store has no such operation.
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
      // Nothing was written (the transaction aborted): read apart, where an
      // unreadable cache is no cache and a failed entries' read fails the start.
    }
  }
  const [cached, open] = await Promise.all([
    kind.loadCached(store),
    store.listByNamespace(context.namespace, "open"),
  ]);
  engine.hold(open);
  return cached;
}
