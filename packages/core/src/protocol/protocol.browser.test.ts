import { expect, test } from "vitest";
import { EventSchema, MetadataKey, StreamCursorSchema } from "./public";

test("the AG-UI schemas and our extensions load in a real browser", () => {
  const event = EventSchema.parse({
    type: "RUN_STARTED",
    threadId: "t",
    runId: "r",
    metadata: { [MetadataKey.stream]: { runId: "r", seq: 1 } },
  });
  expect(StreamCursorSchema.parse(event.metadata?.[MetadataKey.stream])).toEqual({ runId: "r", seq: 1 });
  expect(typeof indexedDB.open).toBe("function");
});
