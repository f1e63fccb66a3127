import { afterEach, describe, test } from "vitest";
import type { OutboxStore } from "../../src/outbox/outbox-store";
import { commitCases } from "./store-contract-commits";
import { connectionCases } from "./store-contract-connections";
import { entryCases } from "./store-contract-entries";

export { makeTestEntry } from "./test-entry";

export interface OutboxStoreContractOptions {
  /**
   * Opens a second connection to the data behind `store`: another tab sharing
   * the database, or the same tab after a reload. Without it, the reload and
   * two-tab cases are not registered (a memory store has nothing to reopen).
   */
  readonly connect?: (store: OutboxStore) => Promise<OutboxStore>;
  /** Runs after each test once every store it opened is closed (delete databases here). */
  readonly cleanup?: () => Promise<void>;
  /**
   * False for a store that leaves the optional `readAtStart` out (the sealed
   * store: its write cannot wait for WebCrypto inside the transaction).
   * @default true
   */
  readonly startRead?: boolean;
}

/**
 * The behaviour every `OutboxStore` must have. Declares Vitest tests; call it
 * from a test file once per implementation and environment.
 */
export function runOutboxStoreContract(
  name: string,
  makeStore: () => Promise<OutboxStore>,
  options: OutboxStoreContractOptions = {},
): void {
  const { connect, cleanup } = options;
  const startReadTest = options.startRead === false ? test.skip : test;
  let opened: OutboxStore[] = [];

  const open = async (): Promise<OutboxStore> => {
    const store = await makeStore();
    opened.push(store);
    return store;
  };
  const reconnect = async (store: OutboxStore): Promise<OutboxStore> => {
    if (connect === undefined) throw new Error("unreachable: the test is registered only with connect");
    const second = await connect(store);
    opened.push(second);
    return second;
  };

  describe(`OutboxStore contract: ${name}`, () => {
    afterEach(async () => {
      for (const store of opened) store.close();
      opened = [];
      await cleanup?.();
    });

    const context = { open, reconnect, startReadTest };
    entryCases(context);
    commitCases(context);
    // Only stores that can be reopened (IndexedDB) have a reload and a second tab:
    // the cases are not registered for the others rather than reported as skipped.
    if (connect !== undefined) connectionCases(context);
  });
}
