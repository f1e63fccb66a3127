import { expect, test, vi } from "vitest";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { AgentHttp } from "./agent-http";
import { loadCapabilitiesValidator } from "./load-capabilities-validator";

// The on-demand chunk, failing to load until the test lets it (a network blip, a deploy).
const chunk = vi.hoisted(() => ({ fail: true, loads: 0 }));
vi.mock("./validate-capabilities", async (importOriginal) => {
  chunk.loads += 1;
  if (chunk.fail) throw new TypeError("Failed to fetch dynamically imported module");
  return importOriginal();
});

/** A document the hand check leaves to the schema: a section it does not know. */
const UNCOMMON = { transport: { streaming: true }, output: { structuredOutput: true }, custom: {} };

function httpServing(body: unknown): AgentHttp {
  return new AgentHttp({
    url: "http://agent.test/agent",
    fetch: () => Promise.resolve(Response.json(body)),
    now: () => 0,
    parseRetryAfter: () => undefined,
  });
}

test("a document the hand check takes never loads the schema", async () => {
  const served = { transport: { streaming: true, resumable: true }, custom: { "x-recovery": {} } };
  expect(await httpServing(served).capabilities()).toEqual(served);
  expect(chunk.loads).toBe(0);
});

test("a capabilities schema that fails to load is a network failure, and the next read loads it again", async () => {
  const http = httpServing(UNCOMMON);
  const failed = await http.capabilities().catch((error: unknown) => error);
  expect(failed).toBeInstanceOf(OutboxError);
  expect(failed).toMatchObject({ kind: ErrorKind.network });
  await expect(loadCapabilitiesValidator()).rejects.toMatchObject({ kind: ErrorKind.network });

  chunk.fail = false;
  expect(await http.capabilities()).toEqual(UNCOMMON);
  const loads = chunk.loads;
  // Loaded once, kept: a later document needing it does not load it again.
  await expect(httpServing({ output: { structuredOutput: "yes" } }).capabilities()).rejects.toMatchObject({
    kind: ErrorKind.invalidEvent,
    message: "The capabilities document is not valid AG-UI.",
  });
  expect(chunk.loads).toBe(loads);
  expect(loads).toBeGreaterThanOrEqual(3);
});
