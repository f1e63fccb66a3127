import type { EntryState } from "../outbox/entry";
import type { OutboxStore } from "../outbox/outbox-store";

/** A sealed answer this client cannot open (no key yet, or another's): kept until the right key comes. */
export interface SealedEntry {
  readonly key: string;
  readonly namespace: string;
  readonly threadId: string;
  readonly interruptId: string;
  readonly state: EntryState;
  readonly createdAt: number;
  readonly reason: SealedReason;
}

export const SealedReason = {
  /** No key has been supplied (`setKey`): typically before sign-in completes. */
  keyMissing: "key_missing",
  /** The key supplied does not open it. */
  keyRejected: "key_rejected",
} as const;
export type SealedReason = (typeof SealedReason)[keyof typeof SealedReason];

/** The `sealing` option (`sealAnswers()`): wraps the store, so WebCrypto loads only where asked for. */
export interface SealingPlugin {
  /** `report` gets the answers this client cannot open after each read; `onKey` reads storage again. */
  wrap(store: OutboxStore, report: SealedReport, onKey?: () => void): OutboxStore;
}

export interface SealedReport {
  setState(partial: { readonly sealed: readonly SealedEntry[] }): void;
}
