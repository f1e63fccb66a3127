import { expect, test } from "vitest";
import { DEMO_USER_HEADER } from "../src/library/demo-identity";
import { APPROVE, ledger, postAndRead, resumeBody, start, terminal, userTurn } from "./support/harness";

const as = (user: string) => ({ [DEMO_USER_HEADER]: user });

test("the demo's users are identities: bob sees none of alice's thread and cannot answer her", async () => {
  const server = await start();
  const threadId = "t-shared-id";
  const asked = await postAndRead(
    server,
    userTurn(threadId, "r-alice-ask", "please deploy to prod"),
    as("alice"),
  );
  const interrupt = (terminal(asked) as { outcome?: { interrupts?: { id: string }[] } }).outcome
    ?.interrupts?.[0];
  if (interrupt === undefined) throw new Error("alice was asked nothing");

  // Hydration: neither alice's messages nor her open question.
  const hydrated = await postAndRead(
    server,
    JSON.stringify({ threadId, runId: "r-bob-h", messages: [] }),
    as("bob"),
  );
  expect(hydrated.events.find((event) => event.type === "MESSAGES_SNAPSHOT")).toMatchObject({ messages: [] });
  expect(JSON.stringify(hydrated.events)).not.toContain(interrupt.id);
  const status = await fetch(`${server.url}/agent/runs/r-alice-ask`, { headers: as("bob") });
  expect(status.status).toBe(404);
  await status.text();

  const stolen = { threadId, runId: "r-bob", interruptId: interrupt.id, key: "k-bob", payload: APPROVE };
  const refused = await postAndRead(server, resumeBody(stolen), { ...as("bob"), "idempotency-key": "k-bob" });
  expect(terminal(refused)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_NOT_FOUND" });
  expect(await ledger(server)).toHaveLength(0);

  const own = { threadId, runId: "r-alice", interruptId: interrupt.id, key: "k-alice", payload: APPROVE };
  const applied = await postAndRead(server, resumeBody(own), {
    ...as("alice"),
    "idempotency-key": "k-alice",
  });
  expect(terminal(applied).type).toBe("RUN_FINISHED");
  expect(await ledger(server)).toHaveLength(1);
  await server.close();
});
