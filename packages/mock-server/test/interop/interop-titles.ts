// The column titles of docs/interop.md's table. A real server's title names the release
// its interpreter has installed, so a table measured on another release says so.
import { pythonOf } from "./agent-framework-peer";
import type { InteropColumnId } from "./interop-table";
import { langGraphPython } from "./langgraph-peer";
import { pydanticAiPython } from "./pydantic-ai-peer";
import { installedVersions } from "./python-peer";

function agentFramework(python: string): string {
  const versions = installedVersions(python, ["agent-framework-ag-ui", "agent-framework-core"]);
  return `Agent Framework (ag-ui ${versions["agent-framework-ag-ui"]}, core ${versions["agent-framework-core"]})`;
}

function langGraph(): string {
  const versions = installedVersions(langGraphPython(), ["ag-ui-langgraph", "langgraph"]);
  return `LangGraph (ag-ui-langgraph ${versions["ag-ui-langgraph"]}, langgraph ${versions.langgraph})`;
}

function pydanticAi(): string {
  const versions = installedVersions(pydanticAiPython(), ["pydantic-ai-slim"]);
  return `pydantic-ai (pydantic-ai-slim ${versions["pydantic-ai-slim"]}, history on the server)`;
}

/** Every column's title; needs every real server's interpreter. */
export function interopTitles(): Record<InteropColumnId, string> {
  return {
    contract: "mock, contract",
    "af-lifecycle": "mock, af-lifecycle",
    "agent-framework": agentFramework(pythonOf("current")),
    "af-legacy": "mock, af-legacy",
    "agent-framework-reported": agentFramework(pythonOf("reported")),
    langgraph: langGraph(),
    "pydantic-ai": pydanticAi(),
  };
}
