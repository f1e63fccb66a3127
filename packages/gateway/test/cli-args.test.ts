import { expect, test } from "vitest";
import { GatewayError, GatewayErrorKind, parseCliArgs, parseStoreSpec } from "../src/index";

test("the command line with its defaults", () => {
  expect(parseCliArgs(["--upstream", "http://127.0.0.1:8000/agent"])).toEqual({
    upstream: "http://127.0.0.1:8000/agent",
    port: 8787,
    host: "127.0.0.1",
    store: { kind: "memory" },
    cors: false,
    leaseMs: undefined,
    sweepMs: undefined,
    help: false,
  });
  expect(
    parseCliArgs([
      "--upstream",
      "https://agent.example/run",
      "--port",
      "0",
      "--store",
      "file:/tmp/gw",
      "--cors",
      "--lease-ms",
      "2000",
      "--sweep-ms",
      "250",
    ]),
  ).toMatchObject({
    port: 0,
    store: { kind: "file", dir: "/tmp/gw" },
    cors: true,
    leaseMs: 2000,
    sweepMs: 250,
  });
});

test.each([
  [[], "--upstream is required"],
  [["--upstream", "ftp://x/agent"], "--upstream must be an http(s) URL"],
  [["--upstream", "not a url"], "--upstream must be an http(s) URL"],
  [["--upstream", "http://x/agent", "--port", "70000"], "--port must be 0 to 65535"],
  [["--upstream", "http://x/agent", "--port", "eighty"], "--port must be a number"],
  [
    ["--upstream", "http://x/agent", "--store", "redis://x"],
    "--store must be memory, file:<dir> or postgres://…",
  ],
  [["--upstream", "http://x/agent", "--bogus"], "Unknown option '--bogus'"],
  [["--upstream", "http://x/agent", "--lease-ms", "5"], "--lease-ms must be a whole number ≥ 100"],
])("%j is a typed invalid_options error: %s", (argv, message) => {
  let thrown: unknown;
  try {
    parseCliArgs(argv);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(GatewayError);
  expect(thrown).toMatchObject({ kind: GatewayErrorKind.invalidOptions });
  expect((thrown as Error).message).toContain(message);
});

test("store specs", () => {
  expect(parseStoreSpec("postgres://u@h/db")).toEqual({
    kind: "postgres",
    connectionString: "postgres://u@h/db",
  });
  expect(parseStoreSpec("postgresql://u@h/db")).toMatchObject({ kind: "postgres" });
  expect(() => parseStoreSpec("file:")).toThrow(GatewayError);
});
