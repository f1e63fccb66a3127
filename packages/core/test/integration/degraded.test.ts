import { expect, test } from "vitest";
import {
  askForDeployment,
  chaos,
  ledger,
  makeClient,
  type RequestRecord,
  recordingFetch,
  settled,
  startHarness,
} from "./harness";

// Servers without the recovery contract (today's Agent Framework), emulated by the
// mock's af-legacy and af-lifecycle modes. DESIGN.md's degraded rules: no answer
// silently dropped, no second execution caused by the client, NOT_FOUND after our
// own send never read as "never pending".

const resumeBodies = (requests: readonly RequestRecord[], bodies: Map<RequestRecord, string>) =>
  requests
    .filter((request) => request.idempotencyKey !== null)
    .map((request) => JSON.parse(bodies.get(request) ?? "{}"));

function capturingFetch(requests: RequestRecord[], bodies: Map<RequestRecord, string>) {
  const record = recordingFetch(requests);
  return (input: string, init?: RequestInit) => {
    const promise = record(input, init);
    const last = requests.at(-1);
    if (last && typeof init?.body === "string") bodies.set(last, init.body);
    return promise;
  };
}

for (const mode of ["af-legacy", "af-lifecycle"] as const) {
  test(`${mode}: detected from capabilities; the resume carries messages: [], approved and accepted; applied once`, async () => {
    const harness = await startHarness({ mode });
    const requests: RequestRecord[] = [];
    const bodies = new Map<RequestRecord, string>();
    const client = makeClient(harness, { deps: { fetch: capturingFetch(requests, bodies) } });
    await client.start();
    expect(client.connection.getState().serverKind).toBe("degraded");
    const interrupt = await askForDeployment(client, `t-${mode}`);

    const entry = await client.answer({ threadId: `t-${mode}`, interruptId: interrupt.id, approved: true });
    const final = await settled(client, entry.key);

    expect(final.state).toBe("applied");
    const [body] = resumeBodies(requests, bodies);
    expect(body.messages).toEqual([]);
    expect(body.resume[0].payload).toMatchObject({ approved: true, accepted: true });
    expect(client.thread(`t-${mode}`).store.getState().pendingInterrupts).toEqual([]);
    expect(await ledger(harness)).toHaveLength(1);
  });

  test(`${mode}: a failure after the tool is never retried blindly: the thread decides, one execution`, async () => {
    const harness = await startHarness({ mode });
    const client = makeClient(harness);
    await client.start();
    const interrupt = await askForDeployment(client, `t-${mode}-fail`);
    await chaos(harness, [{ point: "after-tool", action: "fail" }]);

    const entry = await client.answer({
      threadId: `t-${mode}-fail`,
      interruptId: interrupt.id,
      approved: true,
    });
    const final = await settled(client, entry.key);

    // The tool ran: the verdict says so where the thread shows its result (Agent
    // Framework 1.7 keeps it there), else admits it cannot tell — never dropped.
    expect(final.state).toBe(mode === "af-lifecycle" ? "applied" : "lost");
    expect(final.decision).toEqual({ kind: "approve" });
    expect(client.thread(`t-${mode}-fail`).store.getState().pendingInterrupts).toEqual([]);
    expect(await ledger(harness)).toHaveLength(1);
  });

  test(`${mode}: cancel is applied and runs nothing`, async () => {
    const harness = await startHarness({ mode });
    const client = makeClient(harness);
    await client.start();
    const interrupt = await askForDeployment(client, `t-${mode}-cancel`);

    const entry = await client.answer({
      threadId: `t-${mode}-cancel`,
      interruptId: interrupt.id,
      cancelled: true,
    });
    expect((await settled(client, entry.key)).state).toBe("applied");
    expect(await ledger(harness)).toHaveLength(0);
  });
}

test("af-legacy: edits are sent as flat keys (the schema declares no editedArgs) and the tool runs with them", async () => {
  const harness = await startHarness({ mode: "af-legacy" });
  const client = makeClient(harness);
  await client.start();
  const interrupt = await askForDeployment(client, "t-legacy-edit");

  const entry = await client.answer({
    threadId: "t-legacy-edit",
    interruptId: interrupt.id,
    approved: true,
    editedArgs: { target: "canary" },
  });
  expect(JSON.parse(entry.body).resume[0].payload).toEqual({
    target: "canary",
    approved: true,
    accepted: true,
  });
  expect((await settled(client, entry.key)).state).toBe("applied");
  expect((await ledger(harness)).map((execution) => execution.args)).toEqual([{ target: "canary" }]);
});

test("af-lifecycle: edits go as editedArgs, which its schema declares", async () => {
  const harness = await startHarness({ mode: "af-lifecycle" });
  const client = makeClient(harness);
  await client.start();
  const interrupt = await askForDeployment(client, "t-lifecycle-edit");

  const entry = await client.answer({
    threadId: "t-lifecycle-edit",
    interruptId: interrupt.id,
    approved: true,
    editedArgs: { target: "canary" },
  });
  expect(JSON.parse(entry.body).resume[0].payload).toEqual({
    approved: true,
    accepted: true,
    editedArgs: { target: "canary" },
  });
  expect((await settled(client, entry.key)).state).toBe("applied");
  expect((await ledger(harness)).map((execution) => execution.args)).toEqual([{ target: "canary" }]);
});

test("af-legacy: a resume whose 200 never arrived, then NOT_FOUND on the retry: hydrated and settled, never 'never pending'", async () => {
  const harness = await startHarness({ mode: "af-legacy" });
  const requests: RequestRecord[] = [];
  const client = makeClient(harness, { deps: { fetch: cutFirstResume(requests, "before-status") } });
  await client.start();
  const interrupt = await askForDeployment(client, "t-legacy-drop");

  const entry = await client.answer({ threadId: "t-legacy-drop", interruptId: interrupt.id, approved: true });
  const final = await settled(client, entry.key);

  // Nothing said the server took the first send, so it went again, and was refused.
  expect(requests.filter((request) => request.idempotencyKey === entry.key)).toHaveLength(2);
  // The retry's refusal sent it to the thread, which holds the tool's result.
  expect(final.state).toBe("applied");
  expect(final.verdictDetail).toMatch(/confirmed from the conversation/);
  expect(await ledger(harness)).toHaveLength(1);
});

/**
 * The first resume reaches the server, which answers it in full, but the client sees its
 * connection fail: before the status ("before-status"), or after the 200 with the body
 * failing before its first event, as Chromium shows a socket reset with the first frames
 * still in its buffer ("after-status").
 */
function cutFirstResume(requests: RequestRecord[], where: "before-status" | "after-status") {
  const record = recordingFetch(requests);
  let cut = false;
  return async (input: string, init?: RequestInit) => {
    const response = await record(input, init);
    if (cut || !new Headers(init?.headers).has("idempotency-key")) return response;
    cut = true;
    const served = response.text();
    if (where === "before-status") {
      await served;
      throw new TypeError("fetch failed");
    }
    const body = new ReadableStream({
      async pull(controller) {
        await served;
        controller.error(new TypeError("network error"));
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

test("af-lifecycle: a resume's stream cut after the server's 200, no event seen: never resent, the thread decides", async () => {
  const harness = await startHarness({ mode: "af-lifecycle" });
  const requests: RequestRecord[] = [];
  const client = makeClient(harness, { deps: { fetch: cutFirstResume(requests, "after-status") } });
  await client.start();
  const interrupt = await askForDeployment(client, "t-cut-after-200");

  const entry = await client.answer({
    threadId: "t-cut-after-200",
    interruptId: interrupt.id,
    approved: true,
  });
  const final = await settled(client, entry.key);

  expect(requests.filter((request) => request.idempotencyKey === entry.key)).toHaveLength(1);
  // The server ran it and its thread keeps the result: that is the evidence.
  expect(final.state).toBe("applied");
  expect(final.verdictDetail).toMatch(/confirmed from the conversation/);
  expect(await ledger(harness)).toHaveLength(1);
});

test("af-lifecycle: another browser's different decision is 'answered elsewhere'; one execution", async () => {
  const harness = await startHarness({ mode: "af-lifecycle" });
  const phone = makeClient(harness, { dbName: "phone" });
  const laptop = makeClient(harness, { dbName: "laptop" });
  await phone.start();
  await laptop.start();
  const interrupt = await askForDeployment(phone, "t-lifecycle-race");
  await laptop.thread("t-lifecycle-race").hydrate();

  const approved = await phone.answer({
    threadId: "t-lifecycle-race",
    interruptId: interrupt.id,
    approved: true,
  });
  expect((await settled(phone, approved.key)).state).toBe("applied");
  const rejected = await laptop.answer({
    threadId: "t-lifecycle-race",
    interruptId: interrupt.id,
    approved: false,
  });
  const final = await settled(laptop, rejected.key);

  expect(final.state).toBe("elsewhere");
  expect(await ledger(harness)).toHaveLength(1);
});

test("af-lifecycle: a tool cut off mid-execution is lost (answer kept), never re-run", async () => {
  const harness = await startHarness({ mode: "af-lifecycle" });
  const client = makeClient(harness);
  await client.start();
  const interrupt = await askForDeployment(client, "t-lifecycle-cut");
  await chaos(harness, [{ point: "mid-tool", action: "fail" }]);

  const entry = await client.answer({
    threadId: "t-lifecycle-cut",
    interruptId: interrupt.id,
    approved: true,
  });
  const final = await settled(client, entry.key);

  expect(final.state).toBe("lost");
  expect(final.decision).toEqual({ kind: "approve" });
  expect(await ledger(harness)).toHaveLength(1);
});

test("a capabilities document without x-recovery is a server without the contract too", async () => {
  // Agent Framework has no capabilities route (404, as the emulation answers); other
  // AG-UI servers publish plain capabilities. Both mean: no contract.
  const harness = await startHarness({ mode: "af-lifecycle" });
  const plainCapabilities = {
    transport: { streaming: true },
    humanInTheLoop: { supported: true, approvals: true },
  };
  const client = makeClient(harness, {
    deps: {
      fetch: (input, init) =>
        input.endsWith("/agent/capabilities")
          ? Promise.resolve(Response.json(plainCapabilities))
          : fetch(input, init),
    },
  });
  await client.start();

  expect(client.connection.getState().serverKind).toBe("degraded");
  expect(client.connection.getState().link.name).toBe("connected");
});

test("a capabilities route that fails (not absent) leaves the kind unknown and retries", async () => {
  const harness = await startHarness({ mode: "af-lifecycle" });
  const client = makeClient(harness, {
    deps: {
      fetch: (input, init) =>
        input.endsWith("/agent/capabilities")
          ? Promise.resolve(new Response("<html>Bad gateway</html>", { status: 502 }))
          : fetch(input, init),
    },
  });
  await client.start();

  expect(client.connection.getState().link.name).toBe("unreachable");
});
