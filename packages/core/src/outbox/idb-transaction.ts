import { errorName } from "./storage-error";

/**
 * Runs `work` and resolves after the transaction commits. On any failure the
 * transaction is aborted, so a refused or half-done operation writes nothing.
 */
export async function runInTransaction<T>(
  tx: { readonly done: Promise<void>; abort(): void },
  work: () => Promise<T>,
): Promise<T> {
  const done = tx.done;
  try {
    const result = await work();
    await done;
    return result;
  } catch (error) {
    // The abort (or the failed request) also rejects `done`; the first error is the one to report.
    done.catch(() => {});
    try {
      tx.abort();
    } catch {
      // Already aborted by the failed request, or already finished.
    }
    if (errorName(error) === "AbortError") {
      // A request cut short by the transaction aborting under it: the
      // transaction's own error says why (QuotaExceededError, for one).
      const cause = await done.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      if (cause !== undefined && errorName(cause) !== "AbortError") throw cause;
    }
    throw error;
  }
}
