import type { Message } from "../protocol";
import type { ServerKind } from "./server-kind";

/**
 * What a thread says about whether the tool behind an interrupt ran. A tool
 * message alone is not evidence: servers without the contract store a
 * rejection, and errors raised before the tool body, as tool messages too.
 */
export const ToolEvidence = {
  /** A tool result that is none of the server's markers: the tool ran. */
  ran: "ran",
  /** The server's rejection marker: a rejection resolved the call, nothing ran. */
  rejected: "rejected",
  /** An error the server writes before the tool body runs (unknown tool, bad arguments). */
  notRun: "not_run",
  /** An error the server writes once the body started (it failed, or was aborted): it may have run. */
  mayHaveRun: "may_have_run",
  /** No tool message for the call. */
  none: "none",
} as const;
export type ToolEvidence = (typeof ToolEvidence)[keyof typeof ToolEvidence];

/** A text a server writes as a tool message that is not the tool's own result. */
export interface ToolResultMarker {
  readonly evidence: Exclude<ToolEvidence, "ran" | "none">;
  /** Matched against the whole tool message content. */
  readonly pattern: RegExp;
  /** The releases it was read from (the comment beside it says where they write it). */
  readonly source: string;
}

/**
 * Every marker, per server family, with its source. Servers without the
 * contract do not say which family they are, so the degraded kind applies the
 * markers of every family: each is matched against the whole message, and no
 * tool of ours returns these texts.
 */
export const TOOL_RESULT_MARKERS: Readonly<Record<string, readonly ToolResultMarker[]>> = {
  // agent-framework-core 1.13.0 (ag-ui 1.0.1) and 1.23.0 (ag-ui 1.7.0), _tools.py.
  "agent-framework": [
    // A rejected approval becomes a function result with this text.
    {
      evidence: "rejected",
      pattern: /^Error: Tool call invocation was rejected by user\.$/,
      source: "core 1.13.0, 1.23.0",
    },
    // Written before the function is called.
    {
      evidence: "not_run",
      pattern: /^Error: (Requested function ".*" not found\.|Argument parsing failed\.)$/,
      source: "core 1.13.0, 1.23.0",
    },
    {
      evidence: "not_run",
      pattern: /^Error: Function invocation limit reached before the deferred tool could run\.$/,
      source: "core 1.23.0",
    },
    // The body raised, or was cut off. 1.0.1 also writes "Function failed." for a tool
    // without an implementation, so this text cannot say whether anything ran.
    {
      evidence: "may_have_run",
      pattern: /^Error: (Function failed\.|Tool execution was aborted\b.*)$/s,
      source: "core 1.13.0, 1.23.0",
    },
  ],
  // LangGraph: the AG-UI adapter (ag-ui-langgraph 0.0.47) writes no text of its own; a
  // graph's tool messages come from LangChain. Read from langchain 1.5.2 and
  // langgraph-prebuilt 1.1.3 (what ag-ui-langgraph 0.0.47 with langgraph 1.2.24 installs).
  langgraph: [
    // HumanInTheLoopMiddleware's rejection (agents/middleware/human_in_the_loop.py), which
    // e2e/peers/langgraph writes too: "… with id <id>. The tool was not executed. …", or
    // "… with reason: <reason>".
    {
      evidence: "rejected",
      pattern: /^User rejected the tool call for `[^`]+` with (id |reason: )/s,
      source: "langchain 1.5.2",
    },
    // ToolNode (prebuilt/tool_node.py), before the tool is called: an unknown tool
    // (INVALID_TOOL_NAME_ERROR_TEMPLATE) or arguments it refused (TOOL_INVOCATION_ERROR_TEMPLATE).
    {
      evidence: "not_run",
      pattern:
        /^(Error: \S+ is not a valid tool, try one of \[.*\]\.$|Error invoking tool '[^']+' with kwargs )/s,
      source: "langgraph-prebuilt 1.1.3",
    },
    // ToolNode once the body raised (TOOL_EXECUTION_ERROR_TEMPLATE).
    {
      evidence: "may_have_run",
      pattern: /^Error executing tool '[^']+' with kwargs /,
      source: "langgraph-prebuilt 1.1.3",
    },
  ],
  // pydantic-ai-slim 2.68.0, _deferred.py: ToolDenied's default message.
  "pydantic-ai": [
    { evidence: "rejected", pattern: /^The tool call was denied\.$/, source: "pydantic-ai-slim 2.68.0" },
    // tool_manager.py: a call to a tool the run does not offer is answered with a retry
    // prompt before any tool body runs (a tool withdrawn by its prepare hook, or unknown).
    {
      evidence: "not_run",
      pattern:
        /^Unknown tool name: '.*'\. (No tools available\.|No tools are available yet: .*|Available tools: .*)$/s,
      source: "pydantic-ai-slim 2.68.0",
    },
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

/**
 * One tool message's evidence. AG-UI's `ToolMessage.error` says the call did not
 * succeed (pydantic-ai 2.68.0 sets it for denied and failed calls): a rejection
 * marker in it is a rejection, anything else there means the tool may have run.
 */
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

/** What one tool message's content shows, by the markers of the server kind. */
export function evidenceOfToolContent(content: string, serverKind: ServerKind): ToolEvidence {
  const text = content.trim();
  for (const marker of toolResultMarkers(serverKind)) {
    if (marker.pattern.test(text)) return marker.evidence;
  }
  return "ran";
}

// When a thread holds several tool messages for one call (a retry, a replay), the
// strongest claim that the tool ran decides: a real result anywhere means it ran.
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
