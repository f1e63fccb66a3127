// `npm run docs:interop`: runs DESIGN.md's recovery-contract checks (the
// `@agui-outbox/conformance` package, the same as its CLI runs) against the mock
// (contract mode and its Agent Framework emulations) and the real peers (Agent Framework
// in two releases, LangGraph, pydantic-ai), and writes the results table into
// docs/interop.md in its committed format, titled with the versions each peer's
// interpreter has installed: a second run on the same releases changes nothing.
// Then the conformance CLI judges each real peer bare and behind `@agui-outbox/gateway`:
// the "Behind the gateway" table of docs/interop.md and the conformance README's per-peer
// tables. `-- --gateway` measures only those.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type CheckResult, runChecks, SERVER_CHECKS } from "@agui-outbox/conformance";
import {
  type FamilyReports,
  GATEWAY_FAMILIES,
  type GatewayFamily,
  measureFamily,
  renderGatewayTable,
  renderPeerTables,
  replaceBetween,
} from "../packages/gateway/test/interop/gateway-columns.ts";
import { peerUnavailableReason } from "../packages/mock-server/test/interop/agent-framework-peer.ts";
import {
  INTEROP_COLUMNS,
  RACES,
  renderInteropTable,
  replaceInteropTable,
} from "../packages/mock-server/test/interop/interop-table.ts";
import {
  type RunningTarget,
  startAgentFrameworkTarget,
  startLangGraphTarget,
  startMockTarget,
} from "../packages/mock-server/test/interop/interop-targets.ts";
import { interopTitles } from "../packages/mock-server/test/interop/interop-titles.ts";
import { langGraphPeerUnavailableReason } from "../packages/mock-server/test/interop/langgraph-peer.ts";
import {
  pydanticAiPeerUnavailableReason,
  startPydanticAiTarget,
} from "../packages/mock-server/test/interop/pydantic-ai-peer.ts";

const doc = fileURLToPath(new URL("../docs/interop.md", import.meta.url));
const readme = fileURLToPath(new URL("../packages/conformance/README.md", import.meta.url));
const gatewayOnly = process.argv.includes("--gateway");

for (const release of ["current", "reported"] as const) {
  const unavailable = peerUnavailableReason(release);
  if (unavailable) {
    console.error(`${unavailable}: the real server's column cannot be measured here.`);
    process.exit(1);
  }
}

const langGraphUnavailable = langGraphPeerUnavailableReason();
if (langGraphUnavailable) {
  console.error(`${langGraphUnavailable}: the LangGraph column cannot be measured here.`);
  process.exit(1);
}
const pydanticAiUnavailable = pydanticAiPeerUnavailableReason();
if (pydanticAiUnavailable) {
  console.error(`${pydanticAiUnavailable}: its column cannot be measured here.`);
  process.exit(1);
}

const starters: Record<(typeof INTEROP_COLUMNS)[number]["id"], () => Promise<RunningTarget>> = {
  contract: () => startMockTarget("fixed"),
  "af-lifecycle": () => startMockTarget("af-lifecycle"),
  "agent-framework": () => startAgentFrameworkTarget("current"),
  "af-legacy": () => startMockTarget("af-legacy"),
  "agent-framework-reported": () => startAgentFrameworkTarget("reported"),
  langgraph: startLangGraphTarget,
  "pydantic-ai": startPydanticAiTarget,
};
const columns = new Map<string, Map<string, CheckResult>>();
for (const column of gatewayOnly ? [] : INTEROP_COLUMNS) {
  const target = await starters[column.id]();
  try {
    const results = await runChecks(target);
    columns.set(column.id, results);
    // A race's cell states the race; what this run saw goes to the console only.
    for (const check of Object.keys(RACES[column.id] ?? {})) {
      console.log(`race, ${column.id} ${check}: ${results.get(check)?.observed}`);
    }
  } finally {
    await target.close();
  }
}
const titles = interopTitles();
if (!gatewayOnly) {
  const table = renderInteropTable(SERVER_CHECKS, columns, titles);
  writeFileSync(doc, replaceInteropTable(readFileSync(doc, "utf8"), table));
  console.log(table);
}

const reports = new Map<GatewayFamily, FamilyReports>();
for (const family of GATEWAY_FAMILIES) {
  const measured = await measureFamily(starters[family]);
  reports.set(family, measured);
  const { bare, gateway } = measured;
  console.log(
    `${family}: bare ${bare.passed} passed, ${bare.failed} failed; behind the gateway ${gateway.passed} passed, ${gateway.failed} failed`,
  );
}
const inputs = { reports, titles, races: RACES };
const gatewayTable = renderGatewayTable(inputs);
writeFileSync(doc, replaceBetween(readFileSync(doc, "utf8"), "gateway-table", gatewayTable));
writeFileSync(readme, replaceBetween(readFileSync(readme, "utf8"), "peer-tables", renderPeerTables(inputs)));
console.log(gatewayTable);
