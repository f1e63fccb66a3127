import type { Message } from "../protocol";
import type { ServerKind } from "./server-kind";

/** Whether the tool ran, by the thread: servers store rejections and errors as tool messages too. */
export const ToolEvidence = {
  /** A tool result that is none of the server's markers: the tool ran. */
  ran: "ran",
  rejected: "rejected",
  /** An error written before the tool body runs (unknown tool, bad arguments). */
  notRun: "not_run",
  /** An error written once the body started: it may have run. */
  mayHaveRun: "may_have_run",
  none: "none",
} as const;
export type ToolEvidence = (typeof ToolEvidence)[keyof typeof ToolEvidence];

/** A text a server writes as a tool message that is not the tool's own result. */
export interface ToolResultMarker {
  readonly evidence: Exclude<ToolEvidence, "ran" | "none">;
  /** Matched against the whole tool message content. */
  readonly pattern: RegExp;
  /** The releases it was read from. */
  readonly source: string;
}

/* @__NO_SIDE_EFFECTS__ */
function marker(evidence: ToolResultMarker["evidence"], pattern: RegExp, source: string): ToolResultMarker {
  return { evidence, pattern, source };
}

/** Every marker per family; servers do not name their family, so degraded applies them all. */
// biome-ignore format: one marker per line
export const TOOL_RESULT_MARKERS: Readonly<Record<string, readonly ToolResultMarker[]>> = {
  // agent-framework-core 1.13.0 (ag-ui 1.0.1) and 1.23.0 (ag-ui 1.7.0), _tools.py.
  "agent-framework": [
    marker("rejected", /^Error: Tool call invocation was rejected by user\.$/, "core 1.13.0, 1.23.0"),
    // Written before the function is called.
    marker("not_run", /^Error: (Requested function ".*" not found\.|Argument parsing failed\.)$/,
      "core 1.13.0, 1.23.0"),
    marker("not_run", /^Error: Function invocation limit reached before the deferred tool could run\.$/,
      "core 1.23.0"),
    // The body raised, or was cut off. 1.0.1 also writes "Function failed." for a tool
    // without an implementation, so this text cannot say whether anything ran.
    marker("may_have_run", /^Error: (Function failed\.|Tool execution was aborted\b.*)$/s, "core 1.13.0, 1.23.0"),
  ],
  // ag-ui-langgraph 0.0.47 writes no text of its own: these are LangChain's.
  langgraph: [
    // HumanInTheLoopMiddleware's rejection (agents/middleware/human_in_the_loop.py).
    marker("rejected", /^User rejected the tool call for `[^`]+` with (id |reason: )/s, "langchain 1.5.2"),
    // ToolNode (prebuilt/tool_node.py) before the call: unknown tool, or refused arguments.
    marker("not_run",
      /^(Error: \S+ is not a valid tool, try one of \[.*\]\.$|Error invoking tool '[^']+' with kwargs )/s,
      "langgraph-prebuilt 1.1.3"),
    // ToolNode once the body raised (TOOL_EXECUTION_ERROR_TEMPLATE).
    marker("may_have_run", /^Error executing tool '[^']+' with kwargs /, "langgraph-prebuilt 1.1.3"),
  ],
  // pydantic-ai-slim 2.68.0, _deferred.py: ToolDenied's default message.
  "pydantic-ai": [
    marker("rejected", /^The tool call was denied\.$/, "pydantic-ai-slim 2.68.0"),
    // tool_manager.py: a tool the run does not offer, refused before any body runs.
    marker("not_run",
      /^Unknown tool name: '.*'\. (No tools available\.|No tools are available yet: .*|Available tools: .*)$/s,
      "pydantic-ai-slim 2.68.0"),
  ],
};

const DEGRADED_MARKERS: readonly ToolResultMarker[] = Object.values(TOOL_RESULT_MARKERS).flat();

/** The markers that apply to a server kind; a contract server never stores one as a result. */
export function toolResultMarkers(serverKind: ServerKind): readonly ToolResultMarker[] {
  return serverKind === "degraded" ? DEGRADED_MARKERS : [];
}

function contentText(message: Message): string {
  const content = (message as { content?: unknown }).content;
  return typeof content === "string" ? content : JSON.stringify(content ?? "");
}

// `ToolMessage.error` (pydantic-ai sets it for denied and failed calls): a marker there
// decides, anything else means the tool may have run.
function evidenceOfToolMessage(message: Message, serverKind: ServerKind): ToolEvidence {
  const error = (message as { error?: unknown }).error;
  if (typeof error === "string" && error.length > 0) {
    const marked = evidenceOfToolContent(error, serverKind);
    const fromContent = evidenceOfToolContent(contentText(message), serverKind);
    if (marked !== "ran") return marked;
    return fromContent === "ran" ? "may_have_run" : fromContent;
  }
  return evidenceOfToolContent(contentText(message), serverKind);
}

export function evidenceOfToolContent(content: string, serverKind: ServerKind): ToolEvidence {
  const text = content.trim();
  for (const marker of toolResultMarkers(serverKind)) {
    if (marker.pattern.test(text)) return marker.evidence;
  }
  return "ran";
}

// Of several tool messages for one call, the strongest claim that the tool ran decides.
const STRENGTH: Readonly<Record<ToolEvidence, number>> = {
  ran: 4,
  may_have_run: 3,
  rejected: 2,
  not_run: 1,
  none: 0,
};

/** What the thread's messages show about the tool call `toolCallId`. */
export function toolEvidenceIn(
  messages: readonly Message[],
  toolCallId: string,
  serverKind: ServerKind,
): ToolEvidence {
  let best: ToolEvidence = "none";
  for (const message of messages) {
    if (message.role !== "tool" || message.toolCallId !== toolCallId) continue;
    const evidence = evidenceOfToolMessage(message, serverKind);
    if (STRENGTH[evidence] > STRENGTH[best]) best = evidence;
  }
  return best;
}
