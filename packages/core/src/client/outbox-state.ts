import type { OutboxError } from "../errors/outbox-error";
import type { OutboxEntry } from "../outbox/entry";
import type { ServerKind } from "../outcome/delivery-signal";
import type { SealedEntry } from "../sealing/sealing-plugin";

/** The outbox as the app sees it: every entry of the namespace, and whether they survive a reload. */
export interface OutboxState {
  /** False until the store is open and the entries are loaded. */
  readonly ready: boolean;
  /** False when IndexedDB could not be used and answers live in memory only. */
  readonly durable: boolean;
  /** Why storage is not durable, or the last storage failure. */
  readonly storageError: OutboxError | null;
  /** Oldest first. */
  readonly entries: readonly OutboxEntry[];
  /** Sealed answers this client cannot open yet: kept, not sent, until their key is supplied. */
  readonly sealed: readonly SealedEntry[];
}

/** The link to the agent, tagged on `name`. */
export type LinkState =
  | { readonly name: "starting" }
  | { readonly name: "connected"; readonly serverKind: ServerKind }
  /** The browser says it is offline. A hint: sending goes on trying. */
  | { readonly name: "offline" }
  /** Capabilities could not be read; the client keeps its last known server kind. */
  | { readonly name: "unreachable"; readonly reason: string; readonly retryAt: number }
  /** The server answered unlike its known kind: capabilities are read again before anything new is sent. */
  | { readonly name: "detecting"; readonly reason: string }
  /** The server refused our credentials; waiting for `resumeAfterAuth()`. */
  | { readonly name: "paused"; readonly reason: "unauthorized" }
  | { readonly name: "stopped" };

export interface ConnectionState {
  readonly link: LinkState;
  /** The rules in force: the recovery contract, or the degraded rules. */
  readonly serverKind: ServerKind;
  /** Where `serverKind` comes from: cache, capabilities, or the (always `degraded`) fallback. */
  readonly serverKindFrom?: "cache" | "capabilities" | "fallback";
  /** `navigator.onLine`, as a hint. */
  readonly online: boolean;
  /** This tab is the one that sends for the namespace. */
  readonly leader: boolean;
}

export const initialOutboxState: OutboxState = {
  ready: false,
  durable: false,
  storageError: null,
  entries: [],
  sealed: [],
};

export const initialConnectionState: ConnectionState = {
  link: { name: "starting" },
  serverKind: "contract",
  online: true,
  leader: false,
};
