import { expect, test } from "vitest";
import { EntryState, type OutboxEntry } from "../outbox/entry";
import { createEntry } from "../outbox/reducer";
import { NOT_TAKEN_ERRORS } from "../outcome/not-taken-errors";
import { unshownQuestions } from "./unshown-questions";

const batch = { interruptIds: ["a", "b"] };

function entry(
  key: string,
  interruptId: string,
  now: number,
  changes: Partial<OutboxEntry> = {},
): OutboxEntry {
  return {
    ...createEntry({
      key,
      namespace: "u",
      threadId: "t",
      interruptId,
      runId: `run-${key}`,
      body: "",
      decision: { kind: "approve" },
      now,
      batch,
    }),
    toolCallId: `call-${interruptId}`,
    ...changes,
  };
}

const notTaken = (message: string) => ({
  state: EntryState.needsUser,
  lastError: { kind: "run_error", message },
});

const ids = (entries: readonly OutboxEntry[], answering = "a") =>
  unshownQuestions(entries, "t", [], answering).map((question) => [question.id, question.toolCallId]);

test("an answer of a batch the server did not take, asked again or skipped, is still open", () => {
  expect(ids([entry("k1", "a", 1, notTaken(NOT_TAKEN_ERRORS.skippedInBatch))])).toEqual([["a", "call-a"]]);
  expect(ids([entry("k1", "a", 1, notTaken(NOT_TAKEN_ERRORS.askedAgain))])).toEqual([["a", "call-a"]]);
});

test("a held answer counts: the next batch carries its question", () => {
  expect(ids([entry("k1", "a", 1)])).toEqual([["a", "call-a"]]);
});

test("other needs-you answers, single answers and questions the thread shows do not", () => {
  const refused = entry("k1", "a", 1, notTaken("The server refused the answer."));
  const single = { ...entry("k2", "b", 1, notTaken(NOT_TAKEN_ERRORS.askedAgain)), batch: undefined };
  const { batch: _, ...withoutBatch } = single;
  expect(ids([refused, withoutBatch as OutboxEntry])).toEqual([]);
  const shown = unshownQuestions([entry("k3", "a", 1)], "t", [
    { threadId: "t", id: "a", reason: "tool_call" },
  ]);
  expect(shown).toEqual([]);
});

test("the newest answer decides: a kept answer answered again and applied is no longer open", () => {
  const kept = entry("k1", "a", 1, notTaken(NOT_TAKEN_ERRORS.skippedInBatch));
  const applied = entry("k2", "a", 2, { state: EntryState.applied });
  expect(ids([kept, applied])).toEqual([]);
  expect(ids([applied, kept].reverse())).toEqual([]);
  expect(unshownQuestions([kept], "another-thread", [])).toEqual([]);
});

test("only beside the questions it was asked with: a later run's question never waits for it", () => {
  const kept = entry("k1", "a", 1, notTaken(NOT_TAKEN_ERRORS.skippedInBatch));
  // Answering a question of a later run the thread shows ("c"): the kept one is not in its batch.
  const later = [{ threadId: "t", id: "c", reason: "tool_call" }] as const;
  expect(unshownQuestions([kept], "t", later, "c")).toEqual([]);
  // Beside the other question of its own batch ("b", shown again), it is.
  const again = [{ threadId: "t", id: "b", reason: "tool_call" }] as const;
  expect(unshownQuestions([kept], "t", again, "b").map((question) => question.id)).toEqual(["a"]);
});
