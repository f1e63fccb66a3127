import type { OutboxEntry } from "../outbox/entry";
import type { OutboxStore } from "../outbox/outbox-store";
import type { PlanRetryOptions } from "../retry/plan-retry";
import type { SealingPlugin } from "../sealing/sealing-plugin";
import type { ReadonlyStore } from "../thread/thread-registry";
import type { ThreadState } from "../thread/thread-state";
import type { OutboxDeps } from "./deps";
import type { ConnectionState, OutboxState } from "./outbox-state";
import type { OutboxPlugin } from "./plugins";

export interface OutboxClientOptions {
  /** The agent endpoint, for example `"/agent"` or `"https://api.example.com/agent"`. */
  readonly url: string;
  /** Whose answers these are (the signed-in user); switching user means a new client. */
  readonly namespace: string;
  /**
   * Where entries live; `"indexeddb"` falls back to memory (`outbox.getState().durable`).
   * @default "indexeddb"
   */
  readonly storage?: "indexeddb" | "memory" | OutboxStore;
  /** @default "agui-outbox" */
  readonly dbName?: string;
  /** Side effects to replace (fetch, clock, timers, ids…); the rest use the platform. */
  readonly deps?: Partial<OutboxDeps>;
  /** Headers for every request, read per request (so a refreshed token is used). */
  readonly headers?: () => Record<string, string> | Promise<Record<string, string>>;
  /** Called on 401/403; delivery pauses until `resumeAfterAuth()`. */
  readonly onAuthRequired?: (entry: OutboxEntry) => void;
  /**
   * How long an entry is kept before it is reconciled; keep it below the server's idempotency window.
   * @default 82_800_000 (23 h)
   */
  readonly retentionMs?: number;
  /** @default 45_000 */
  readonly stallTimeoutMs?: number;
  /** @default 1_048_576 */
  readonly maxEventBytes?: number;
  /** Backoff (base 1 s, cap 30 s, full jitter) and retry budget. */
  readonly retry?: PlanRetryOptions;
  /** Ask the browser to keep the origin's storage (`navigator.storage.persist()`). @default true */
  readonly requestPersistence?: boolean;
  /**
   * Add-ons the client drives, e.g. background runs: `backgroundRuns()` from
   * `@agui-outbox/background`.
   * @default []
   */
  readonly plugins?: readonly OutboxPlugin[];
  /**
   * Answers sealed at rest: `sealAnswers()` from `@agui-outbox/core/sealing`, then `setKey(key)`
   * after sign-in; answers are refused (`sealing_key_missing`) until a key is set.
   * @default undefined (stored as written)
   */
  readonly sealing?: SealingPlugin;
}

/** What the person decided about one interrupt. */
export type AnswerInput = {
  readonly threadId: string;
  readonly interruptId: string;
} & (
  | {
      readonly approved: true;
      readonly editedArgs?: Readonly<Record<string, unknown>>;
      /** Sent where the `responseSchema` declares `reason`; always kept with the entry. */
      readonly reason?: string;
    }
  | { readonly approved: false; readonly reason?: string }
  | { readonly cancelled: true }
);

export interface ThreadHandle {
  readonly threadId: string;
  readonly store: ReadonlyStore<ThreadState>;
  /** Sends a user message and follows the run. Rejects with an `OutboxError`. */
  send(text: string): Promise<void>;
  /** Replays the thread from the server (messages and open interrupts). */
  hydrate(): Promise<void>;
}

export interface OutboxClient {
  /** The agent endpoint the client talks to. */
  readonly url: string;
  readonly namespace: string;
  readonly outbox: ReadonlyStore<OutboxState>;
  readonly connection: ReadonlyStore<ConnectionState>;
  /** Opens storage, recovers unfinished answers and starts sending. Idempotent. */
  start(): Promise<void>;
  thread(threadId: string): ThreadHandle;
  /**
   * Validates the answer, writes it durably with a fresh idempotency key and resolves once committed;
   * sending happens after. A second call for the same interrupt returns the first entry.
   */
  answer(input: AnswerInput): Promise<OutboxEntry>;
  /**
   * The entry this tab shows for an interrupt: its own answer, else the newest.
   * @default entries: the outbox's current entries
   */
  entryFor(threadId: string, interruptId: string, entries?: readonly OutboxEntry[]): OutboxEntry | undefined;
  /** Skip the rest of a backoff for one entry. */
  retryNow(key: string): Promise<void>;
  /** Removes an entry with a final verdict; refuses one without. */
  discard(key: string): Promise<void>;
  /**
   * For a lost answer, on the person's word: marks the entry `resentAt` durably, then posts `text`
   * as a user message. False when not lost or resent already; rejects with the send's error (the mark stays).
   */
  resendAsMessage(key: string, text: string): Promise<boolean>;
  /** After the app re-authenticated: resume paused deliveries. */
  resumeAfterAuth(): Promise<void>;
  /** Wipes every entry and cursor of a namespace (sign-out). */
  clear(namespace?: string): Promise<void>;
  /** Stops sending and closes storage. Entries stay durable. */
  dispose(): void;
}
