import { expect, test } from "vitest";
import { CLI_CHECKS, type CliReport, renderPeerTables } from "./gateway-columns";

// The generated tables must read the same on every run: a race's cell states the race,
// and the summary counts it as that failure whichever way this run's race went.

const report = (pass: (id: string) => boolean): CliReport => {
  const results = new Map(CLI_CHECKS.map((check) => [check.id, { pass: pass(check.id), observed: "seen" }]));
  const passed = [...results.values()].filter((result) => result.pass).length;
  return { passed, failed: results.size - passed, results };
};

test("a race that went the right way this run is still shown and counted as the race", () => {
  const text = renderPeerTables({
    reports: new Map([["langgraph", { bare: report(() => true), gateway: report(() => true) }]]),
    titles: {
      "agent-framework": "",
      "agent-framework-reported": "",
      langgraph: "LangGraph",
      "pydantic-ai": "",
    },
    races: { langgraph: { "drop-retry": "a race" } },
  });
  expect(text).toContain("| `drop-retry`");
  expect(text).toMatch(/`drop-retry` +\| FAIL: a race +\| pass: seen/);
  expect(text).toMatch(
    new RegExp(
      `\\*\\*${CLI_CHECKS.length - 1} passed, 1 failed\\*\\* +\\| \\*\\*${CLI_CHECKS.length} passed, 0 failed`,
    ),
  );
});
