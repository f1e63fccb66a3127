import { expect, test } from "vitest";
import { formatEventId, parseEventId } from "./stream-cursor";

test("an event id round-trips, even when the run id holds colons", () => {
  const cursor = { runId: "run:with:colons", seq: 42 };
  expect(parseEventId(formatEventId(cursor))).toEqual(cursor);
});

test("malformed event ids are rejected rather than guessed", () => {
  for (const bad of [
    "",
    "run",
    ":3",
    "run:",
    "run:0",
    "run:-1",
    "run:1.5",
    "run:01",
    "run:9007199254740993",
  ]) {
    expect(parseEventId(bad), bad).toBeUndefined();
  }
});
