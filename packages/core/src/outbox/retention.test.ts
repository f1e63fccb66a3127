import { expect, test } from "vitest";
import { makeTestEntry } from "../../test/support/store-contract";
import { EntryState, isFinalState } from "./entry";
import { FINAL_ENTRY_RETENTION_MS, isPrunable } from "./retention";

test("only applied, elsewhere and expired entries are pruned, and only once the window has passed", () => {
  const settledAt = 1_000;
  const after = settledAt + FINAL_ENTRY_RETENTION_MS;
  const prunable = Object.values(EntryState).filter((state) =>
    isPrunable(makeTestEntry({ state, updatedAt: settledAt }), after),
  );
  expect(prunable.sort()).toEqual([EntryState.applied, EntryState.elsewhere, EntryState.expired].sort());
  // Never before a verdict, and never an answer the person still has to act on.
  for (const state of prunable) expect(isFinalState(state)).toBe(true);
  expect(isPrunable(makeTestEntry({ state: EntryState.applied, updatedAt: settledAt }), after - 1)).toBe(
    false,
  );
  expect(
    isPrunable(makeTestEntry({ state: EntryState.applied, updatedAt: settledAt }), settledAt + 10, 10),
  ).toBe(true);
});
