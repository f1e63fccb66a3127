import type { OutboxStore } from "../../src/outbox/outbox-store";

/** What each group of contract cases is given by `runOutboxStoreContract`. */
export interface ContractContext {
  /** A fresh store, closed after the test. */
  readonly open: () => Promise<OutboxStore>;
  /** A second connection to the data behind `store` (another tab, a reload). */
  readonly reconnect: (store: OutboxStore) => Promise<OutboxStore>;
  /** `test`, or `test.skip` for a store that leaves `readAtStart` out. */
  readonly startReadTest: (name: string, run: () => Promise<void>) => void;
}
