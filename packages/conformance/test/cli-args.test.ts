import { expect, test } from "vitest";
import { ConformanceError, ConformanceErrorKind, parseCliArgs } from "../src/index";
import { runCliCollecting } from "./support";

const files = (contents: Record<string, string>) => (path: string) => {
  const text = contents[path];
  if (text === undefined) throw new Error(`ENOENT: ${path}`);
  return text;
};

const kindOf = (argv: readonly string[], readText?: (path: string) => string) => {
  try {
    parseCliArgs(argv, readText);
  } catch (error) {
    return error instanceof ConformanceError ? error.kind : "not a ConformanceError";
  }
  return "parsed";
};

test("flags become a target; the URL's trailing slash goes", () => {
  const args = parseCliArgs(["http://127.0.0.1:1/agent/", "--ledger", "http://127.0.0.1:1/l", "--ask", "hi"]);
  expect(args.target).toEqual({
    agentUrl: "http://127.0.0.1:1/agent/",
    ledger: "http://127.0.0.1:1/l",
    ask: { one: "hi" },
  });
  expect(args.json).toBe(false);
});

test("a config file supplies what flags do not; flags win", () => {
  const config = JSON.stringify({
    agentUrl: "http://a.test/agent",
    chaos: "http://a.test/c",
    ask: { two: "both" },
  });
  const args = parseCliArgs(["http://b.test/agent", "--config", "c.json"], files({ "c.json": config }));
  expect(args.target).toEqual({
    agentUrl: "http://b.test/agent",
    chaos: "http://a.test/c",
    ask: { two: "both" },
  });
});

test("bad input is a typed error", () => {
  expect(kindOf([])).toBe(ConformanceErrorKind.invalidArgs);
  expect(kindOf(["not a url"])).toBe(ConformanceErrorKind.invalidArgs);
  expect(kindOf(["ftp://a.test/agent"])).toBe(ConformanceErrorKind.invalidArgs);
  expect(kindOf(["http://a.test/agent", "--bogus"])).toBe(ConformanceErrorKind.invalidArgs);
  expect(kindOf(["http://a.test/agent", "http://b.test/agent"])).toBe(ConformanceErrorKind.invalidArgs);
  expect(kindOf(["http://a.test/agent", "--ledger", "x"])).toBe(ConformanceErrorKind.invalidArgs);
  expect(kindOf(["--config", "missing.json"], files({}))).toBe(ConformanceErrorKind.invalidConfig);
  expect(kindOf(["--config", "c.json"], files({ "c.json": "{" }))).toBe(ConformanceErrorKind.invalidConfig);
  expect(kindOf(["--config", "c.json"], files({ "c.json": '{"agentUrl":"http://a.test","port":1}' }))).toBe(
    ConformanceErrorKind.invalidConfig,
  );
});

test("the CLI exits 2 on bad input, naming the problem, with the usage", async () => {
  const run = await runCliCollecting(["http://a.test/agent", "--ledger", "nope"]);
  expect(run.code).toBe(2);
  expect(run.err.join("\n")).toContain("--ledger must be an http(s) URL");
  expect(run.err.join("\n")).toContain("usage: agui-outbox-conformance");
  expect(run.out).toEqual([]);
});
