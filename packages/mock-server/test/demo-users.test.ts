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

test("a background run's token and status are its user's alone", async () => {
  const server = await start();
  const body = JSON.stringify({
    threadId: "t-bg-users",
    runId: "r-bg-alice",
    messages: [{ id: "m1", role: "user", content: "please deploy to prod" }],
    forwardedProps: { background: true },
  });
  const started = await fetch(`${server.url}/agent`, {
    method: "POST",
    headers: { ...as("alice"), "content-type": "application/json", "idempotency-key": "bg-alice" },
    body,
  });
  expect(started.status).toBe(202);
  const { continuationToken } = (await started.json()) as { continuationToken: string };

  const poll = (user: string) =>
    fetch(`${server.url}/agent/background/poll`, {
      method: "POST",
      headers: { ...as(user), "content-type": "application/json" },
      body: JSON.stringify({ continuationToken }),
    });
  const stolen = await poll("bob");
  expect(stolen.status).toBe(404);
  expect(await stolen.json()).toMatchObject({ error: { code: "BACKGROUND_TOKEN_UNKNOWN" } });
  const status = await fetch(`${server.url}/agent/runs/r-bg-alice`, { headers: as("bob") });
  expect(status.status).toBe(404);
  await status.text();

  const own = await poll("alice");
  expect(own.status).toBe(200);
  await own.text();
  const mine = await fetch(`${server.url}/agent/runs/r-bg-alice`, { headers: as("alice") });
  expect(await mine.json()).toMatchObject({ runId: "r-bg-alice", threadId: "t-bg-users" });
  await server.close();
});
