import { afterEach, describe, expect, test, vi } from "vitest";
import { isOutboxError } from "../../src/errors/outbox-error";
import { EntryState } from "../../src/outbox/entry";
import type { IdbStore } from "../../src/outbox/idb-store";
import { makeTestEntry } from "./store-contract";

/** How the browser reports a full origin; each is a real shape of QuotaExceededError. */
const QuotaShape = {
  /** `put` itself throws. */
  syncThrow: "put throws QuotaExceededError",
  /** The transaction aborts while the put is pending: the request gets AbortError, `tx.error` says why. */
  abortWhilePending: "the transaction aborts with QuotaExceededError while the put is pending",
  /** The put succeeds, then the commit fails (Chromium reports quota at commit). */
  abortAtCommit: "the put succeeds and the commit aborts with QuotaExceededError",
} as const;
type QuotaShape = (typeof QuotaShape)[keyof typeof QuotaShape];

const quotaError = () => new DOMException("The quota has been exceeded.", "QuotaExceededError");

/** Makes the transaction report `error` as its `error`, as the browser does on an abort. */
function failTransaction(tx: IDBTransaction, error: DOMException): void {
  Object.defineProperty(tx, "error", { configurable: true, get: () => error, set: () => {} });
  tx.abort();
}

/** Makes the next `IDBObjectStore.put` fail in the given shape. */
function failNextPut(shape: QuotaShape): void {
  const original = IDBObjectStore.prototype.put;
  vi.spyOn(IDBObjectStore.prototype, "put").mockImplementationOnce(function (
    this: IDBObjectStore,
    ...args: Parameters<IDBObjectStore["put"]>
  ) {
    if (shape === QuotaShape.syncThrow) throw quotaError();
    const request = original.apply(this, args);
    const tx = this.transaction;
    if (shape === QuotaShape.abortWhilePending) {
      failTransaction(tx, quotaError());
    } else {
      // Registered before the store's own listener, so it runs first.
      request.addEventListener("success", () => failTransaction(tx, quotaError()), { once: true });
    }
    return request;
  });
}

/**
 * Quota exceeded, in every shape a browser produces: `put` rejects with kind
 * `storage_quota`, writes nothing, leaves every earlier entry readable, and the
 * store keeps working once space is back.
 */
export function runIdbQuotaCases(name: string, openStore: () => Promise<IdbStore>): void {
  describe(`IdbStore quota exceeded: ${name}`, () => {
    let store: IdbStore | undefined;
    afterEach(() => {
      vi.restoreAllMocks();
      store?.close();
      store = undefined;
    });

    for (const shape of Object.values(QuotaShape)) {
      test(shape, async () => {
        store = await openStore();
        const earlier = [
          makeTestEntry(),
          makeTestEntry({ interruptId: "interrupt-2", state: EntryState.sending }),
        ];
        for (const entry of earlier) await store.put(entry);
        await store.putMeta("alice", "cursor", { lastSeq: 3 });

        const secret = "answer-content-that-must-not-leak";
        const rejected = makeTestEntry({ interruptId: "interrupt-3", body: secret });
        failNextPut(shape);
        const error = await store.put(rejected).then(
          () => undefined,
          (reason: unknown) => reason,
        );
        expect(isOutboxError(error) && error.kind).toBe("storage_quota");
        expect(isOutboxError(error) && error.message).toContain("put");
        expect(String(isOutboxError(error) && error.message)).not.toContain(secret);

        expect(await store.get(rejected.key)).toBeUndefined();
        expect(await store.listByNamespace("alice")).toEqual(earlier);
        expect(await store.getMeta("alice", "cursor")).toEqual({ lastSeq: 3 });

        // Space is back: the same entry can be written again.
        await store.put(rejected);
        expect(await store.get(rejected.key)).toEqual(rejected);
      });
    }

    test("a quota failure inside putIfAbsentForInterrupt inserts nothing", async () => {
      store = await openStore();
      const kept = makeTestEntry({ interruptId: "interrupt-kept" });
      await store.put(kept);
      const entry = makeTestEntry();
      // putIfAbsentForInterrupt uses `add`; fail the commit of that transaction.
      const original = IDBObjectStore.prototype.add;
      vi.spyOn(IDBObjectStore.prototype, "add").mockImplementationOnce(function (
        this: IDBObjectStore,
        ...args: Parameters<IDBObjectStore["add"]>
      ) {
        const request = original.apply(this, args);
        const tx = this.transaction;
        request.addEventListener("success", () => failTransaction(tx, quotaError()), { once: true });
        return request;
      });
      const error = await store.putIfAbsentForInterrupt(entry).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(isOutboxError(error) && error.kind).toBe("storage_quota");
      expect(await store.listByInterrupt("alice", "thread-1", "interrupt-1")).toEqual([]);
      expect(await store.listByNamespace("alice")).toEqual([kept]);
      expect(await store.putIfAbsentForInterrupt(entry)).toEqual({ inserted: true, entry });
    });
  });
}
