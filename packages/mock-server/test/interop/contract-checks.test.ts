import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CONTRACT_CHECKS, runChecks, SERVER_CHECKS } from "@agui-outbox/conformance";
import { describe, expect, test } from "vitest";
import { peerUnavailableReason } from "./agent-framework-peer";
import { INTEROP_COLUMNS, type InteropColumnId, RACES, readInteropTable } from "./interop-table";
import {
  type RunningTarget,
  startAgentFrameworkTarget,
  startLangGraphTarget,
  startMockTarget,
} from "./interop-targets";
import { langGraphPeerUnavailableReason } from "./langgraph-peer";
import { pydanticAiPeerUnavailableReason, startPydanticAiTarget } from "./pydantic-ai-peer";

// docs/interop.md states which recovery-contract checks each server passes. This runs
// the checks again and holds the document to them: the mock in contract mode must pass
// them all, the emulation of Agent Framework must fail exactly where the real server
// fails, and the table must say what the servers do today.

const documented = readInteropTable(
  readFileSync(fileURLToPath(new URL("../../../../docs/interop.md", import.meta.url)), "utf8"),
);
const unavailable: Partial<Record<InteropColumnId, string>> = {};
for (const [columnId, release] of [
  ["agent-framework", "current"],
  ["agent-framework-reported", "reported"],
] as const) {
  const reason = peerUnavailableReason(release);
  if (reason === undefined) continue;
  unavailable[columnId] = reason;
  console.warn(`skipped (the column ${columnId}): ${reason}`);
}
const langGraphUnavailable = langGraphPeerUnavailableReason();
if (langGraphUnavailable !== undefined) {
  unavailable.langgraph = langGraphUnavailable;
  console.warn(`skipped (the column langgraph): ${langGraphUnavailable}`);
}

const pydanticAiUnavailable = pydanticAiPeerUnavailableReason();
if (pydanticAiUnavailable !== undefined) {
  unavailable["pydantic-ai"] = pydanticAiUnavailable;
  console.warn(`skipped (the column pydantic-ai): ${pydanticAiUnavailable}`);
}

const starters: Record<InteropColumnId, () => Promise<RunningTarget>> = {
  contract: () => startMockTarget("fixed"),
  "af-lifecycle": () => startMockTarget("af-lifecycle"),
  "agent-framework": () => startAgentFrameworkTarget("current"),
  "af-legacy": () => startMockTarget("af-legacy"),
  "agent-framework-reported": () => startAgentFrameworkTarget("reported"),
  langgraph: startLangGraphTarget,
  "pydantic-ai": startPydanticAiTarget,
};

test("docs/interop.md lists every check, once", () => {
  expect([...documented.keys()]).toEqual(SERVER_CHECKS.map((check) => check.id));
});

describe.each(INTEROP_COLUMNS.map((column) => column.id))("%s", (columnId) => {
  const skip = unavailable[columnId] !== undefined;
  test.skipIf(skip)("passes and fails the checks as docs/interop.md says", { timeout: 150_000 }, async () => {
    const target = await starters[columnId]();
    try {
      const results = await runChecks(target);
      const held = ([id]: readonly [string, unknown]) => RACES[columnId]?.[id] === undefined;
      const observed = Object.fromEntries([...results].filter(held).map(([id, result]) => [id, result.pass]));
      const expected = Object.fromEntries(
        [...documented].filter(held).map(([id, columns]) => [id, columns.get(columnId)]),
      );
      expect(observed).toEqual(expected);
    } finally {
      await target.close();
    }
  });
});

test("the mock in contract mode passes every contract check but the one for servers without it", () => {
  const contractChecks = new Set(CONTRACT_CHECKS.map((check) => check.id));
  const failing = [...documented]
    .filter(([id, columns]) => contractChecks.has(id) && !columns.get("contract"))
    .map(([id]) => id);
  expect(failing).toEqual(["model-failure-thread"]);
});

test.each([
  ["af-lifecycle", "agent-framework"],
  ["af-legacy", "agent-framework-reported"],
] as const)("the emulation %s fails exactly where the real release it emulates fails", (emulation, real) => {
  const differing = [...documented]
    .filter(([, columns]) => columns.get(emulation) !== columns.get(real))
    .map(([id]) => id);
  expect(differing).toEqual([]);
});
