import { runStartTransactionCases } from "../../test/support/start-transactions-cases";

// fake-indexeddb (set up globally for Node): the same database across the client and the checks.
let counter = 0;
runStartTransactionCases("fake-indexeddb", () => {
  counter += 1;
  return `start-transactions-${counter}`;
});
