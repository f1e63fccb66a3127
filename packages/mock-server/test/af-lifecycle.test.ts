import { expect, test } from "vitest";
import {
  addFaults,
  askToDeploy,
  gatedSleep,
  ledger,
  manualClock,
  plainResumeBody,
  post,
  postAndRead,
  postStream,
  start,
  tempStatePath,
  terminal,
} from "./support/harness";

const lifecycle = (options = {}) => start({ mode: "af-lifecycle", ...options });

test("the reference sequence: tool, model failure, identical retry → replay of the settled result, one execution", async () => {
  const server = await lifecycle();
  const { interrupt } = await askToDeploy(server, "t-ref");
  await addFaults(server, [{ point: "after-tool", action: "fail" }]);
  const payload = { approved: true, accepted: true };

  const failed = await postAndRead(server, plainResumeBody("t-ref", "r1", interrupt.id, payload));
  expect(failed.types).toEqual(["RUN_STARTED", "TOOL_CALL_RESULT", "RUN_ERROR"]);
  expect(terminal(failed).code).toBe("ServiceResponseException");
  expect(await ledger(server)).toHaveLength(1);

  const retried = await postAndRead(server, plainResumeBody("t-ref", "r2", interrupt.id, payload));
  // As 1.7.0: the settled result again, and no model turn.
  expect(retried.types).toEqual(["RUN_STARTED", "TOOL_CALL_RESULT", "RUN_FINISHED"]);
  const resultOf = (events: typeof failed.events) =>
    events.find((event) => event.type === "TOOL_CALL_RESULT");
  expect(resultOf(retried.events)?.messageId).toBe(resultOf(failed.events)?.messageId);
  // A plain finish: this server knows nothing of x-resume.
  expect(terminal(retried).metadata).toBeUndefined();
  expect(await ledger(server)).toHaveLength(1);
});

test("a duplicate after success replays within 900 s, and is NOT_FOUND after the window", async () => {
  const clock = manualClock();
  const server = await lifecycle({ clock });
  const { interrupt } = await askToDeploy(server, "t-window");
  const body = (runId: string) => plainResumeBody("t-window", runId, interrupt.id, { approved: true });
  expect(terminal(await postAndRead(server, body("r1"))).type).toBe("RUN_FINISHED");

  clock.advance(899_000);
  expect(terminal(await postAndRead(server, body("r2"))).type).toBe("RUN_FINISHED");
  clock.advance(2_000);
  const late = await postAndRead(server, body("r3"));
  expect(terminal(late).code).toBe("APPROVAL_RESUME_NOT_FOUND");
  expect(await ledger(server)).toHaveLength(1);
});

test("a different decision is INVALID with a message saying it conflicts", async () => {
  const server = await lifecycle();
  const { interrupt } = await askToDeploy(server, "t-conflict");
  await postAndRead(server, plainResumeBody("t-conflict", "r1", interrupt.id, { approved: true }));
  const other = await postAndRead(
    server,
    plainResumeBody("t-conflict", "r2", interrupt.id, { approved: false }),
  );
  expect(terminal(other)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_INVALID" });
  expect(String(terminal(other).message)).toContain("conflicts");
  expect(await ledger(server)).toHaveLength(1);
});

test("a concurrent duplicate is INVALID with a message saying it is not pending", async () => {
  const gate = gatedSleep();
  const server = await lifecycle({ sleep: gate.sleep });
  const { interrupt } = await askToDeploy(server, "t-race");
  const body = (runId: string) => plainResumeBody("t-race", runId, interrupt.id, { approved: true });
  const { reader: first } = await postStream(server, body("r1"));
  await first.waitFor(() => gate.pending === 1);
  const second = await postAndRead(server, body("r2"));
  expect(terminal(second)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_INVALID" });
  expect(String(terminal(second).message)).toContain("not pending");
  gate.releaseAll();
  await first.done;
  expect(terminal(first).type).toBe("RUN_FINISHED");
  expect(await ledger(server)).toHaveLength(1);
});

test("an expired approval is INVALID with a message saying it expired", async () => {
  const clock = manualClock();
  const server = await lifecycle({ clock, interruptTtlMs: 60_000 });
  const { interrupt } = await askToDeploy(server, "t-exp");
  clock.advance(60_001);
  const reader = await postAndRead(server, plainResumeBody("t-exp", "r1", interrupt.id, { approved: true }));
  expect(terminal(reader)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_INVALID" });
  expect(String(terminal(reader).message)).toContain("expired");
  expect(await ledger(server)).toHaveLength(0);
});

test("the client vanishing while the tool runs leaves it indeterminate: INVALID, never re-run", async () => {
  const gate = gatedSleep();
  const server = await lifecycle({ sleep: gate.sleep });
  const { interrupt } = await askToDeploy(server, "t-gone");
  await addFaults(server, [{ point: "mid-stream", action: "drop", afterEvents: 0 }]);
  const body = (runId: string) => plainResumeBody("t-gone", runId, interrupt.id, { approved: true });
  const cut = await post(server, body("r1"))
    .then((response) => response.text())
    .then(
      () => "ended",
      () => "cut",
    );
  expect(cut).toBe("cut");
  gate.releaseAll();
  expect(await ledger(server)).toHaveLength(1);

  const retried = await postAndRead(server, body("r2"));
  expect(terminal(retried)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_INVALID" });
  expect(String(terminal(retried).message)).toContain("indeterminate");
  expect(await ledger(server)).toHaveLength(1);
});

test("a cancel finishes normally and runs nothing", async () => {
  const server = await lifecycle();
  const { interrupt } = await askToDeploy(server, "t-cancel");
  const reader = await postAndRead(
    server,
    plainResumeBody("t-cancel", "r1", interrupt.id, undefined, "cancelled"),
  );
  expect(terminal(reader)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
  expect(await ledger(server)).toHaveLength(0);
});

test("payloads read `approved` first, accept `accepted`, and `editedArgs` replaces the arguments", async () => {
  const server = await lifecycle();
  const a = await askToDeploy(server, "t-accepted");
  await postAndRead(server, plainResumeBody("t-accepted", "r1", a.interrupt.id, { accepted: true }));
  const b = await askToDeploy(server, "t-approved-wins");
  const rejected = await postAndRead(
    server,
    plainResumeBody("t-approved-wins", "r2", b.interrupt.id, { approved: false, accepted: true }),
  );
  expect(rejected.events.find((event) => event.type === "TEXT_MESSAGE_CONTENT")?.delta).toBe(
    "Okay, I won't deploy.",
  );
  const c = await askToDeploy(server, "t-edited");
  await postAndRead(
    server,
    plainResumeBody("t-edited", "r3", c.interrupt.id, { approved: true, editedArgs: { target: "canary" } }),
  );
  expect((await ledger(server)).map((entry) => entry.args)).toEqual([
    { target: "prod" },
    { target: "canary" },
  ]);
  expect(c.interrupt.responseSchema).toMatchObject({ properties: { editedArgs: { type: "object" } } });
});

test("no contract: no id lines, no x-recovery, no re-attach; states live in memory only", async () => {
  const server = await lifecycle();
  const { reader } = await askToDeploy(server, "t-plain");
  expect(reader.raw).not.toMatch(/^id:/m);
  // As Agent Framework's endpoint: no capabilities route at all.
  expect((await fetch(`${server.url}/agent/capabilities`)).status).toBe(404);
  expect((await fetch(`${server.url}/agent/runs/t-plain-ask/events`)).status).toBe(404);
});

test("a restart forgets the settled states: an identical retry is then NOT_FOUND (in-process only)", async () => {
  const path = tempStatePath();
  const options = { mode: "af-lifecycle", store: { kind: "file", path } } as const;
  const first = await start(options);
  const { interrupt } = await askToDeploy(first, "t-restart");
  await addFaults(first, [{ point: "after-tool", action: "fail" }]);
  const body = (runId: string) => plainResumeBody("t-restart", runId, interrupt.id, { approved: true });
  expect(terminal(await postAndRead(first, body("r1"))).code).toBe("ServiceResponseException");
  await addFaults(first, [{ point: "before-response", action: "crash" }]);
  await post(first, body("r2")).catch(() => undefined);
  await first.crashed;

  const second = await start(options);
  const retried = await postAndRead(second, body("r3"));
  expect(terminal(retried).code).toBe("APPROVAL_RESUME_NOT_FOUND");
  expect(await ledger(second)).toHaveLength(1);
});
