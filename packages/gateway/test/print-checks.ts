// Prints every server check (`@agui-outbox/conformance`) against one upstream with
// the gateway in front: `npx tsx --conditions=@agui-outbox/source packages/gateway/test/print-checks.ts <upstream>`,
// upstream one of: mock (af-lifecycle), langgraph, pydantic-ai, agent-framework, agent-framework-reported.
import { runChecks } from "@agui-outbox/conformance";
import {
  type RunningTarget,
  startAgentFrameworkTarget,
  startLangGraphTarget,
  startMockTarget,
} from "../../mock-server/test/interop/interop-targets";
import { startPydanticAiTarget } from "../../mock-server/test/interop/pydantic-ai-peer";
import { startGateway } from "./support/start-gateway";

const starters: Record<string, () => Promise<RunningTarget>> = {
  mock: () => startMockTarget("af-lifecycle"),
  langgraph: startLangGraphTarget,
  "pydantic-ai": startPydanticAiTarget,
  "agent-framework": () => startAgentFrameworkTarget("current"),
  "agent-framework-reported": () => startAgentFrameworkTarget("reported"),
};
const start = starters[process.argv[2] ?? "mock"];
if (start === undefined) throw new Error(`upstream must be one of ${Object.keys(starters).join(", ")}`);
const upstream = await start();
const running = await startGateway(`${upstream.url}/agent`);
const lines: string[] = [];
try {
  const results = await runChecks({ url: running.url, ledger: upstream.ledger, chaos: upstream.chaos });
  for (const [id, result] of results)
    lines.push(`${result.pass ? "pass" : "FAIL"} ${id}: ${result.observed}`);
} finally {
  await running.close();
  await upstream.close();
}
// Printed after both are closed, so a reader that stops early leaves no process behind.
console.log(lines.join("\n"));
