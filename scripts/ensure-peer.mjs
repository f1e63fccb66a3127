// The real Agent Framework peer (e2e/peers/agent-framework) needs Python and PyPI. Its
// setup.sh installs it once; where it cannot, the tests that need it skip with the one
// line it printed, passed on to them as AF_PEER_UNAVAILABLE. Nothing else depends on it.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const setup = fileURLToPath(new URL("../e2e/peers/agent-framework/setup.sh", import.meta.url));

function setUp(release, script = setup, peer = "Agent Framework peer") {
  const result = spawnSync("bash", [script, release], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = (result.stdout ?? "").trim().split("\n").filter(Boolean);
  for (const line of lines) console.log(line);
  if (result.status === 0) return undefined;
  return lines.at(-1) ?? `${peer} unavailable: setup.sh exited with ${result.status ?? result.signal}`;
}

/**
 * Installs both releases (the current one, and the one the approval-resume report was
 * filed against). Returns undefined when the current one is ready, else the reason it
 * is not; a missing reported release only skips its own tests.
 */
export function ensureAgentFrameworkPeer() {
  const current = setUp("current");
  if (current === undefined) setUp("reported");
  return current;
}

/**
 * The real LangGraph peer (e2e/peers/langgraph, ag-ui-langgraph): undefined when it is
 * ready, else the one line saying why not (its tests skip with it).
 */
export function ensureLangGraphPeer() {
  const script = fileURLToPath(new URL("../e2e/peers/langgraph/setup.sh", import.meta.url));
  return setUp("current", script, "LangGraph peer");
}

/**
 * The pydantic-ai peer (e2e/peers/pydantic-ai): installs it once. Returns undefined when
 * it is ready, else the one line its setup.sh printed.
 */
export function ensurePydanticAiPeer() {
  const script = fileURLToPath(new URL("../e2e/peers/pydantic-ai/setup.sh", import.meta.url));
  const result = spawnSync("bash", [script], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const lines = (result.stdout ?? "").trim().split("\n").filter(Boolean);
  for (const line of lines) console.log(line);
  if (result.status === 0) return undefined;
  return (
    lines.at(-1) ?? `pydantic-ai peer unavailable: setup.sh exited with ${result.status ?? result.signal}`
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const reason = ensureAgentFrameworkPeer();
  if (reason) process.exitCode = 3;
}
