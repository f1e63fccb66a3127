import { expect, test } from "vitest";
import { toolResultsIn } from "./record-history";

const sse = (...events: unknown[]) =>
  events.map((event) => `id: r:1\ndata: ${JSON.stringify(event)}\n\n`).join("");

test("a response's tool results: streamed results and tool messages of a snapshot", () => {
  const body = sse(
    { type: "RUN_STARTED", threadId: "t", runId: "r" },
    { type: "TOOL_CALL_RESULT", messageId: "m1", toolCallId: "call-1", content: "Deployed to prod." },
    {
      type: "MESSAGES_SNAPSHOT",
      messages: [
        { id: "m2", role: "assistant", content: "ok" },
        { id: "m3", role: "tool", toolCallId: "call-2", content: '{"ok":true}' },
      ],
    },
  );
  expect(toolResultsIn(body)).toEqual(["call-1", "call-2"]);
});

test("a server's error or rejection text is not a result, nor is a line that is not JSON", () => {
  const body = sse(
    { type: "TOOL_CALL_RESULT", messageId: "m1", toolCallId: "call-1", content: "Error: Function failed." },
    {
      type: "MESSAGES_SNAPSHOT",
      messages: [
        {
          id: "m2",
          role: "tool",
          toolCallId: "call-2",
          content: "Error: Tool call invocation was rejected by user.",
        },
        { id: "m3", role: "tool", toolCallId: "call-3", content: "The tool call was denied." },
      ],
    },
  );
  expect(toolResultsIn(`${body}data: {not json\n\n`)).toEqual([]);
});
