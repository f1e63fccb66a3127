import { expect, test } from "vitest";
import {
  addFaults,
  askToDeploy,
  gatedSleep,
  ledger,
  plainResumeBody,
  post,
  postAndRead,
  start,
  terminal,
} from "./support/harness";

const legacy = (options = {}) => start({ mode: "af-legacy", ...options });

test("the reference sequence: consume, tool, model failure, retry → NOT_FOUND, one execution", async () => {
  const server = await legacy();
  const { interrupt } = await askToDeploy(server, "t-ref");
  await addFaults(server, [{ point: "after-tool", action: "fail" }]);
  const body = plainResumeBody("t-ref", "r1", interrupt.id, { accepted: true });

  const failed = await postAndRead(server, body);
  // The tool ran at ingress, but the release streams nothing before the model's first
  // output: the failing model call is a bare RUN_ERROR (as agent-framework-ag-ui 1.0.1).
  expect(failed.types).toEqual(["RUN_ERROR"]);
  expect(terminal(failed)).toMatchObject({ code: "ServiceResponseException" });
  expect(await ledger(server)).toHaveLength(1);

  const retried = await postAndRead(server, body.replace('"r1"', '"r2"'));
  // As 1.0.1: its APPROVAL_* errors follow a RUN_STARTED.
  expect(retried.types).toEqual(["RUN_STARTED", "RUN_ERROR"]);
  expect(terminal(retried)).toMatchObject({ code: "APPROVAL_RESUME_NOT_FOUND" });
  expect(String(terminal(retried).message)).toContain(interrupt.id);
  expect(await ledger(server)).toHaveLength(1);
});

test("a duplicate after success is NOT_FOUND too, indistinguishable from a never-pending id", async () => {
  const server = await legacy();
  const { interrupt } = await askToDeploy(server, "t-dup");
  const applied = await postAndRead(server, plainResumeBody("t-dup", "r1", interrupt.id, { accepted: true }));
  expect(terminal(applied)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
  expect(applied.events.find((event) => event.type === "TEXT_MESSAGE_CONTENT")?.delta).toBe(
    "Deployed to prod.",
  );

  const duplicate = await postAndRead(
    server,
    plainResumeBody("t-dup", "r2", interrupt.id, { accepted: true }),
  );
  const never = await postAndRead(server, plainResumeBody("t-dup", "r3", "call_never", { accepted: true }));
  expect(terminal(duplicate).code).toBe("APPROVAL_RESUME_NOT_FOUND");
  expect(terminal(never).code).toBe("APPROVAL_RESUME_NOT_FOUND");
  expect(await ledger(server)).toHaveLength(1);
});

test("payloads read `accepted` with flat argument edits; `approved` alone is not read", async () => {
  const server = await legacy();
  const first = await askToDeploy(server, "t-flat");
  await postAndRead(
    server,
    plainResumeBody("t-flat", "r1", first.interrupt.id, { accepted: true, target: "qa" }),
  );
  expect((await ledger(server)).map((entry) => entry.args)).toEqual([{ target: "qa" }]);

  const second = await askToDeploy(server, "t-approved-only");
  const reader = await postAndRead(
    server,
    plainResumeBody("t-approved-only", "r2", second.interrupt.id, {
      approved: true,
      editedArgs: { target: "x" },
    }),
  );
  expect(reader.events.find((event) => event.type === "TEXT_MESSAGE_CONTENT")?.delta).toBe(
    "Okay, I won't deploy.",
  );
  expect(await ledger(server)).toHaveLength(1);
  expect(second.interrupt.responseSchema).toMatchObject({ required: ["accepted"] });
  expect(second.interrupt.expiresAt).toBeUndefined();
});

test("cancel is RUN_ERROR APPROVAL_RESUME_CANCELLED and runs nothing", async () => {
  const server = await legacy();
  const { interrupt } = await askToDeploy(server, "t-cancel");
  const reader = await postAndRead(
    server,
    plainResumeBody("t-cancel", "r1", interrupt.id, undefined, "cancelled"),
  );
  expect(reader.types).toEqual(["RUN_STARTED", "RUN_ERROR"]);
  expect(terminal(reader).code).toBe("APPROVAL_RESUME_CANCELLED");
  expect(await ledger(server)).toHaveLength(0);
});

test("a disconnect aborts the run: the tool ran, nothing more happens, and the retry is NOT_FOUND", async () => {
  const gate = gatedSleep();
  const server = await legacy({ sleep: gate.sleep });
  const { interrupt } = await askToDeploy(server, "t-gone");
  // The connection is cut as soon as the response starts, while the tool is still running.
  await addFaults(server, [{ point: "mid-stream", action: "drop", afterEvents: 0 }]);
  const cut = await post(server, plainResumeBody("t-gone", "r1", interrupt.id, { accepted: true }))
    .then((response) => response.text())
    .then(
      () => "ended",
      () => "cut",
    );
  expect(cut).toBe("cut");
  expect(gate.pending).toBe(1);
  gate.releaseAll();
  expect(await ledger(server)).toHaveLength(1);

  const hydrated = await postAndRead(
    server,
    JSON.stringify({ threadId: "t-gone", runId: "h1", messages: [] }),
  );
  const roles = ((hydrated.events[1]?.messages ?? []) as { role: string }[]).map((message) => message.role);
  expect(roles).toEqual(["user", "assistant"]);
  expect(terminal(hydrated).outcome).toEqual({ type: "success" });
  const retried = await postAndRead(
    server,
    plainResumeBody("t-gone", "r2", interrupt.id, { accepted: true }),
  );
  expect(terminal(retried).code).toBe("APPROVAL_RESUME_NOT_FOUND");
  expect(await ledger(server)).toHaveLength(1);
});

test("no contract: no id lines, no x-stream, no x-recovery, no re-attach, Idempotency-Key ignored", async () => {
  const server = await legacy();
  const { reader, interrupt } = await askToDeploy(server, "t-plain");
  expect(reader.raw).not.toMatch(/^id:/m);
  expect(reader.events.every((event) => event.metadata === undefined)).toBe(true);

  // As Agent Framework's endpoint: no capabilities route at all.
  expect((await fetch(`${server.url}/agent/capabilities`)).status).toBe(404);
  expect((await fetch(`${server.url}/agent/runs/t-plain-ask/events`)).status).toBe(404);
  expect((await fetch(`${server.url}/agent/runs/t-plain-ask`)).status).toBe(404);

  const headers = { "idempotency-key": "same-key" };
  const first = await post(
    server,
    plainResumeBody("t-plain", "r1", interrupt.id, { accepted: true }),
    headers,
  );
  expect(first.status).toBe(200);
  await first.text();
  const second = await post(
    server,
    plainResumeBody("t-plain", "r2", interrupt.id, { accepted: false }),
    headers,
  );
  expect(second.status).toBe(200);
  expect(await second.text()).toContain("APPROVAL_RESUME_NOT_FOUND");
  expect(await ledger(server)).toHaveLength(1);
});

test("hydration replays the stored snapshot with the pending approval", async () => {
  const server = await legacy();
  const { interrupt } = await askToDeploy(server, "t-hydrate");
  const hydrated = await postAndRead(
    server,
    JSON.stringify({ threadId: "t-hydrate", runId: "h1", messages: [] }),
  );
  expect(hydrated.types).toEqual(["RUN_STARTED", "MESSAGES_SNAPSHOT", "RUN_FINISHED"]);
  expect(terminal(hydrated).outcome).toEqual({ type: "interrupt", interrupts: [interrupt] });
  expect(await ledger(server)).toHaveLength(0);
});

test("the mode can be switched at runtime", async () => {
  const server = await start();
  const response = await fetch(`${server.url}/__mode`, {
    method: "POST",
    body: JSON.stringify({ mode: "af-legacy" }),
  });
  expect(await response.json()).toEqual({ mode: "af-legacy" });
  expect(server.mode).toBe("af-legacy");
  const { interrupt } = await askToDeploy(server, "t-switch");
  expect(interrupt.responseSchema).toMatchObject({ required: ["accepted"] });
});
