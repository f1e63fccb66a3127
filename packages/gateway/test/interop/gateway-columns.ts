// The real peers bare and behind the gateway, as the conformance CLI judges them: the
// "Behind the gateway" table of docs/interop.md and the per-peer tables of the
// conformance README, written by `npm run docs:interop` (scripts/interop-table.ts).
import { type CheckResult, CONTRACT_CHECKS, markdownTable, runCli } from "@agui-outbox/conformance";
import type { RunningTarget } from "../../../mock-server/test/interop/interop-targets";
import { startGateway } from "../support/start-gateway";

/** The real peer families, each measured bare and with the gateway in front. */
export const GATEWAY_FAMILIES = [
  "agent-framework",
  "agent-framework-reported",
  "langgraph",
  "pydantic-ai",
] as const;
export type GatewayFamily = (typeof GATEWAY_FAMILIES)[number];

/** What `agui-outbox-conformance --json` printed for one server. */
export interface CliReport {
  readonly passed: number;
  readonly failed: number;
  readonly results: ReadonlyMap<string, CheckResult>;
}

export interface FamilyReports {
  readonly bare: CliReport;
  readonly gateway: CliReport;
}

/** The rows the CLI prints: the contract's own checks. */
export const CLI_CHECKS = CONTRACT_CHECKS.filter((check) => check.contract !== false);

/**
 * Why a check cannot pass behind the gateway, where the upstream itself prevents it;
 * shown beside the measured cell whenever it fails.
 */
export const GATEWAY_LIMITS: Partial<Record<GatewayFamily, Readonly<Record<string, string>>>> = {
  "agent-framework-reported": {
    "model-failure-retry":
      "1.0.1 runs the tool at ingress and, when the model call after it fails, sends a bare `RUN_ERROR` with no tool result, then `NOT_FOUND` to the retry: nothing shows whether the tool ran, so the gateway records it indeterminate and never forwards it again",
    "model-failure-report": "the same bare `RUN_ERROR`: the upstream never streams the tool's result",
  },
};

/** Runs the conformance CLI in this process, `--json`, with the peer's ledger and fault hooks. */
export async function runConformanceCli(agentUrl: string, peerUrl: string): Promise<CliReport> {
  const out: string[] = [];
  const err: string[] = [];
  const argv = [agentUrl, "--ledger", `${peerUrl}/__ledger`, "--chaos", `${peerUrl}/__chaos`, "--json"];
  const code = await runCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  if (code === 2) throw new Error(`agui-outbox-conformance refused its arguments: ${err.join("\n")}`);
  const report = JSON.parse(out.join("\n")) as {
    passed: number;
    failed: number;
    results: Array<{ id: string } & CheckResult>;
  };
  const results = new Map(report.results.map(({ id, ...result }) => [id, result]));
  return { passed: report.passed, failed: report.failed, results };
}

/** One peer process: the CLI against it bare, then against a gateway in front of it. */
export async function measureFamily(start: () => Promise<RunningTarget>): Promise<FamilyReports> {
  const peer = await start();
  try {
    const bare = await runConformanceCli(`${peer.url}/agent`, peer.url);
    const running = await startGateway(`${peer.url}/agent`);
    try {
      return { bare, gateway: await runConformanceCli(`${running.url}/agent`, peer.url) };
    } finally {
      await running.close();
    }
  } finally {
    await peer.close();
  }
}

/** A cell: the verdict and what was seen, a race stated instead, a limit's reason beside a failure. */
function cellOf(result: CheckResult | undefined, race?: string, limit?: string): string {
  if (race !== undefined) return `FAIL: ${race}`;
  if (result === undefined) return "—";
  const text = `${result.pass ? "pass" : "FAIL"}: ${result.observed}`;
  return (!result.pass && limit !== undefined ? `${text} (${limit})` : text).replaceAll("|", "\\|");
}

/** The CLI's summary line, a race counted as the failure its cell states (so a rerun reads the same). */
function summaryOf(report: CliReport, races: Readonly<Record<string, string>> = {}): string {
  const judged = CLI_CHECKS.map((check) => report.results.get(check.id)).filter((result) => !result?.skipped);
  const passed = CLI_CHECKS.filter(
    (check) => report.results.get(check.id)?.pass === true && races[check.id] === undefined,
  ).length;
  return `**${passed} passed, ${judged.length - passed} failed**`;
}

export interface TableInputs {
  readonly reports: ReadonlyMap<GatewayFamily, FamilyReports>;
  readonly titles: Readonly<Record<GatewayFamily, string>>;
  /** Cells of the bare columns that are races, not rules (the interop table's `RACES`). */
  readonly races: Partial<Record<GatewayFamily, Readonly<Record<string, string>>>>;
}

function columnsOf(family: GatewayFamily, { reports, races }: TableInputs) {
  const report = reports.get(family);
  return {
    bare: (id: string) => cellOf(report?.bare.results.get(id), races[family]?.[id]),
    gateway: (id: string) => cellOf(report?.gateway.results.get(id), undefined, GATEWAY_LIMITS[family]?.[id]),
    summaries:
      report === undefined ? ["—", "—"] : [summaryOf(report.bare, races[family]), summaryOf(report.gateway)],
  };
}

/** docs/interop.md's table: a bare column and a gateway column per family, a summary row last. */
export function renderGatewayTable(inputs: TableInputs): string {
  const families = GATEWAY_FAMILIES.filter((family) => inputs.reports.has(family));
  const header = [
    "check",
    ...families.flatMap((family) => [`${inputs.titles[family]}, bare`, "behind the gateway"]),
  ];
  const rows = CLI_CHECKS.map((check) => [
    `\`${check.id}\``,
    ...families.flatMap((family) => {
      const columns = columnsOf(family, inputs);
      return [columns.bare(check.id), columns.gateway(check.id)];
    }),
  ]);
  const summary = ["CLI summary", ...families.flatMap((family) => columnsOf(family, inputs).summaries)];
  return markdownTable([header, ...rows, summary]);
}

/** The conformance README's section: one table per peer, bare beside behind the gateway. */
export function renderPeerTables(inputs: TableInputs): string {
  return GATEWAY_FAMILIES.filter((family) => inputs.reports.has(family))
    .map((family) => {
      const columns = columnsOf(family, inputs);
      const rows = CLI_CHECKS.map((check) => [
        `\`${check.id}\``,
        columns.bare(check.id),
        columns.gateway(check.id),
      ]);
      const table = markdownTable([
        ["check", "bare", "behind `@agui-outbox/gateway`"],
        ...rows,
        ["summary", ...columns.summaries],
      ]);
      return `### ${inputs.titles[family]}\n\n${table}`;
    })
    .join("\n\n");
}

/** Replaces what lies between `<!-- name:start -->` and `<!-- name:end -->`. */
export function replaceBetween(document: string, name: string, text: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from < 0 || to < from) throw new Error(`the document lacks the ${start} … ${end} markers`);
  return `${document.slice(0, from + start.length)}\n\n${text}\n\n${document.slice(to)}`;
}
