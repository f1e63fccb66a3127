import type { EntryState } from "../outbox/entry";
import type { OutboxStore } from "../outbox/outbox-store";

/**
 * An answer kept sealed in storage that this client cannot open: no key was
 * supplied yet, or the key supplied does not open it (another user's, a rotated
 * one). It stays stored and is sent once the right key is supplied. Only the
 * clear metadata is shown: the answer itself is what could not be read.
 */
export interface SealedEntry {
  readonly key: string;
  readonly namespace: string;
  readonly threadId: string;
  readonly interruptId: string;
  /** The state it was stored in. */
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

/**
 * The `sealing` option: `sealAnswers()` from `@agui-outbox/core/sealing`. The
 * client wraps its store with it, so the WebCrypto code loads only in apps that
 * ask for it.
 */
export interface SealingPlugin {
  /**
   * `report` gets, after each read of the namespace, the answers this client
   * cannot open (`outbox.sealed`); `onKey`, when a key is supplied or changed,
   * reads storage again.
   */
  wrap(store: OutboxStore, report: SealedReport, onKey?: () => void): OutboxStore;
}

/** Where the sealed entries are reported: the client's outbox state. */
export interface SealedReport {
  setState(partial: { readonly sealed: readonly SealedEntry[] }): void;
}
