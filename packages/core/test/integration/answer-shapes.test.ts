import { expect, test } from "vitest";
import { MemoryStore } from "../../src/outbox/memory-store";
import { askForDeployment, makeClient, startHarness } from "./harness";

// answer() checks the payload in the shape of the server kind in force and, only
// when that does not fit, in the other kind's shape: a question only the other
// shape fits means the server is not what the client took it for.

/** Replaces every `responseSchema` in a JSON value. */
function withSchema(value: unknown, schema: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => withSchema(item, schema));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === "responseSchema" ? schema : withSchema(item, schema),
    ]),
  );
}

/** The mock server's runs, with every question's schema replaced; capabilities answer until held. */
function rewritingFetch(schema: unknown, capabilities: { asked: number; held: boolean }) {
  return async (input: string, init?: RequestInit): Promise<Response> => {
    if (input.endsWith("/capabilities")) {
      capabilities.asked += 1;
      if (capabilities.held) return new Promise<Response>(() => {});
    }
    const response = await fetch(input, init);
    if (!response.headers.get("content-type")?.includes("text/event-stream")) return response;
    const text = await response.text();
    const rewritten = text
      .split("\n")
      .map((line) =>
        line.startsWith("data: ")
          ? `data: ${JSON.stringify(withSchema(JSON.parse(line.slice(6)), schema))}`
          : line,
      )
      .join("\n");
    return new Response(rewritten, { status: response.status, headers: response.headers });
  };
}

test("a question only the other kind's shape fits: the answer is kept and the server kind is read again", async () => {
  const harness = await startHarness();
  const storage = new MemoryStore();
  // Cached from an earlier start: the contract. This question's schema requires
  // `accepted`, which only the shape for servers without the contract carries.
  await storage.putMeta("user-1", "server-kind", "contract");
  const capabilities = { asked: 0, held: false };
  const schema = {
    type: "object",
    properties: { approved: { type: "boolean" }, accepted: { type: "boolean" } },
    required: ["accepted"],
  };
  const client = makeClient(harness, { storage, deps: { fetch: rewritingFetch(schema, capabilities) } });
  await client.start();
  const interrupt = await askForDeployment(client, "t-shape");
  expect(interrupt.responseSchema).toEqual(schema);
  // From here on capabilities never answer: the kind read again stays unknown.
  capabilities.held = true;
  const asked = capabilities.asked;

  const entry = await client.answer({ threadId: "t-shape", interruptId: interrupt.id, approved: true });

  expect(client.outbox.getState().entries.map((one) => one.key)).toEqual([entry.key]);
  expect(client.connection.getState().link).toMatchObject({ name: "detecting" });
  expect(capabilities.asked).toBe(asked + 1);
});
