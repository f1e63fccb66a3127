import { expect, test } from "vitest";
import type { Message } from "../protocol";
import { evidenceOfToolContent, TOOL_RESULT_MARKERS, toolEvidenceIn } from "./tool-evidence";

const tool = (content: string, extra: Record<string, unknown> = {}): Message =>
  ({ id: `m-${content.length}`, role: "tool", toolCallId: "call-1", content, ...extra }) as Message;

test.each([
  ["Error: Tool call invocation was rejected by user.", "rejected"],
  ['Error: Requested function "deploy_change" not found.', "not_run"],
  ["Error: Argument parsing failed.", "not_run"],
  ["Error: Function invocation limit reached before the deferred tool could run.", "not_run"],
  ["Error: Function failed.", "may_have_run"],
  ["Error: Tool execution was aborted before a result was produced. timeout", "may_have_run"],
  ["The tool call was denied.", "rejected"],
  [
    "User rejected the tool call for `deploy_change` with id deploy-1. The tool was not executed. Do not retry this tool call unless the user explicitly requests it.",
    "rejected",
  ],
  ["User rejected the tool call for `deploy_change` with reason: not now", "rejected"],
  ["Error: deploy_change is not a valid tool, try one of [].", "not_run"],
  ["Error invoking tool 'deploy_change' with kwargs {'target': 7} with error:\n bad\n Please fix", "not_run"],
  ["Error executing tool 'deploy_change' with kwargs {'target': 'prod'} with error:\n boom", "may_have_run"],
  ["Unknown tool name: 'deploy_change'. No tools available.", "not_run"],
  ["Unknown tool name: 'deploy_change'. Available tools: 'status'", "not_run"],
  ["Deployed to prod.", "ran"],
  // A result that merely mentions a marker is the tool's own output.
  ["Deployed. (Earlier: Error: Tool call invocation was rejected by user.)", "ran"],
] as const)("degraded: %j is %s", (content, evidence) => {
  expect(evidenceOfToolContent(content, "degraded")).toBe(evidence);
});

test("a contract server never stores a marker as a result: any tool message is its result", () => {
  expect(evidenceOfToolContent("Error: Tool call invocation was rejected by user.", "contract")).toBe("ran");
});

test("every marker names the release it was read from", () => {
  for (const markers of Object.values(TOOL_RESULT_MARKERS)) {
    for (const marker of markers) expect(marker.source).toMatch(/\d+\.\d+\.\d+/);
  }
});

test("the thread: no message, another call's message, and the strongest claim among several", () => {
  expect(toolEvidenceIn([], "call-1", "degraded")).toBe("none");
  expect(
    toolEvidenceIn([{ ...tool("Deployed."), toolCallId: "call-2" } as Message], "call-1", "degraded"),
  ).toBe("none");
  const rejectedThenRan = [
    tool("Error: Tool call invocation was rejected by user."),
    tool("Deployed to prod."),
  ];
  expect(toolEvidenceIn(rejectedThenRan, "call-1", "degraded")).toBe("ran");
  expect(toolEvidenceIn(rejectedThenRan.slice(0, 1), "call-1", "degraded")).toBe("rejected");
});

test("ToolMessage.error: a rejection text there is a rejection, any other error means it may have run", () => {
  expect(toolEvidenceIn([tool("", { error: "The tool call was denied." })], "call-1", "degraded")).toBe(
    "rejected",
  );
  expect(toolEvidenceIn([tool("partial", { error: "boom" })], "call-1", "degraded")).toBe("may_have_run");
});

test('LangGraph\'s tool messages carry ToolMessage.error "error" for a failure: the text decides', () => {
  const rejection =
    "User rejected the tool call for `deploy_change` with id call-1. The tool was not executed.";
  expect(toolEvidenceIn([tool(rejection, { error: "error" })], "call-1", "degraded")).toBe("rejected");
  const unknown = "Error: deploy_change is not a valid tool, try one of [].";
  expect(toolEvidenceIn([tool(unknown, { error: "error" })], "call-1", "degraded")).toBe("not_run");
});
