import { OutboxError } from "../errors/outbox-error";
import { NotAnOutboxDatabase, type OutboxDb, openOutboxDb } from "./idb-schema";
import { toOpenError } from "./storage-error";

export interface ConnectionEvents {
  readonly onClose?: (reason: OutboxError) => void;
  readonly onReopen?: () => void;
  readonly onUnavailable?: (reason: OutboxError) => void;
}

type Connection =
  | { readonly name: "open"; readonly db: OutboxDb }
  /** `ready` never rejects: it settles once the connection has moved on. */
  | { readonly name: "reopening"; readonly ready: Promise<void> }
  /** The last reopen failed for a passing reason; the next call tries once more. */
  | { readonly name: "reopen_failed"; readonly reason: OutboxError }
  | { readonly name: "unavailable"; readonly reason: OutboxError }
  | { readonly name: "closed"; readonly reason: OutboxError };

export type ConnectionName = Connection["name"];

/**
 * The store's one connection, reopened when it closes under the store:
 *
 *   open ──versionchange / close──▶ reopening ──opened──▶ open (onReopen)
 *    │                                  └──not an outbox db──▶ unavailable (onUnavailable)
 *    └──close()──▶ closed
 *
 * A reopen that failed for a passing reason is tried again on the next call, never in a loop.
 */
export class IdbConnection {
  #state: Connection;
  readonly #factory: IDBFactory;
  readonly #dbName: string;
  readonly #events: ConnectionEvents;

  constructor(db: OutboxDb, factory: IDBFactory, dbName: string, events: ConnectionEvents) {
    this.#factory = factory;
    this.#dbName = dbName;
    this.#events = events;
    this.#state = { name: "open", db };
    this.#watch(db);
  }

  get name(): ConnectionName {
    return this.#state.name;
  }

  /** The open database, after any reopen under way; rejects `storage_unavailable` when there is none. */
  async db(operation: string): Promise<OutboxDb> {
    if (this.#state.name === "reopen_failed") this.#reopen();
    const waiting = this.#state;
    if (waiting.name === "reopening") await waiting.ready;
    const current = this.#state;
    if (current.name === "open") return current.db;
    const reason =
      current.name === "reopening"
        ? new OutboxError("storage_unavailable", "the outbox database is reopening")
        : current.reason;
    throw new OutboxError("storage_unavailable", `${operation} failed: ${reason.message}`, { cause: reason });
  }

  close(): void {
    const current = this.#state;
    if (current.name === "closed") return;
    this.#state = {
      name: "closed",
      reason: new OutboxError("storage_unavailable", "the outbox store is closed"),
    };
    if (current.name === "open") current.db.close();
  }

  #watch(db: OutboxDb): void {
    // Closed at once so another tab's upgrade is not blocked.
    db.addEventListener("versionchange", () => {
      db.close();
      this.#lost(db, "the outbox database was closed so that another tab could upgrade or delete it");
    });
    db.addEventListener("close", () => this.#lost(db, "the browser closed the outbox database"));
  }

  #lost(db: OutboxDb, message: string): void {
    const current = this.#state;
    if (current.name !== "open" || current.db !== db) return;
    this.#reopen();
    this.#events.onClose?.(new OutboxError("storage_unavailable", message));
  }

  #reopen(): void {
    const isCurrent = () => this.#state.name === "reopening" && this.#state.ready === ready;
    const ready = openOutboxDb(this.#factory, this.#dbName).then(
      (db) => {
        if (!isCurrent()) return db.close(); // closed by the app meanwhile
        this.#state = { name: "open", db };
        this.#watch(db);
        this.#events.onReopen?.();
      },
      (error: unknown) => {
        if (!isCurrent()) return;
        const reason = toOpenError("reopen", error);
        if (!(error instanceof NotAnOutboxDatabase)) {
          this.#state = { name: "reopen_failed", reason };
          return;
        }
        this.#state = { name: "unavailable", reason };
        this.#events.onUnavailable?.(reason);
      },
    );
    this.#state = { name: "reopening", ready };
  }
}
