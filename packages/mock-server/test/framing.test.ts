import { RecoveryCapabilitySchema, RunStatusSchema } from "@agui-outbox/core/protocol";
import { expect, test } from "vitest";
import {
  APPROVE,
  askToDeploy,
  gatedSleep,
  ledger,
  manualClock,
  postStream,
  reattach,
  resume,
  resumeBody,
  start,
} from "./support/harness";

test("every frame carries id <runId>:<seq>, 1-based and gap-free, mirrored in x-stream, with LF endings", async () => {
  const server = await start();
  const { reader } = await askToDeploy(server, "t-frames");
  expect(reader.raw).not.toContain("\r");
  reader.frames.forEach((frame, index) => {
    expect(frame.id).toBe(`t-frames-ask:${index + 1}`);
    expect((frame.event.metadata as Record<string, unknown>)["x-stream"]).toEqual({
      runId: "t-frames-ask",
      seq: index + 1,
    });
  });
  expect(reader.types.filter((type) => type === "RUN_FINISHED" || type === "RUN_ERROR")).toHaveLength(1);
});

test("a quiet run sends `: keepalive` comments", async () => {
  const gate = gatedSleep();
  const server = await start({ sleep: gate.sleep, keepaliveMs: 20 });
  const { interrupt } = await askToDeploy(server, "t-keepalive");
  const { reader } = await postStream(
    server,
    resumeBody({
      threadId: "t-keepalive",
      runId: "run-k",
      interruptId: interrupt.id,
      key: "k",
      payload: APPROVE,
    }),
    { "idempotency-key": "k" },
  );
  await reader.waitFor(() => reader.comments.length >= 2);
  expect(reader.comments.every((comment) => comment === "keepalive")).toBe(true);
  expect(reader.raw).toContain("\n: keepalive\n\n");
  gate.releaseAll();
  await reader.done;
  expect(await ledger(server)).toHaveLength(1);
});

test("capabilities advertise the recovery contract", async () => {
  const server = await start({ claimLeaseMs: 1234 });
  const response = await fetch(`${server.url}/agent/capabilities`);
  const capabilities = (await response.json()) as Record<string, Record<string, unknown>>;
  expect(capabilities.transport).toMatchObject({ streaming: true, resumable: true });
  expect(capabilities.humanInTheLoop).toMatchObject({
    approvals: true,
    interrupts: true,
    approveWithEdits: true,
  });
  const recovery = RecoveryCapabilitySchema.parse(capabilities.custom?.["x-recovery"]);
  expect(recovery).toMatchObject({ version: 1, claimLeaseMs: 1234, keepaliveMs: 15_000 });
});

test("run status reports a finished run with its terminal event; an expired log answers 410", async () => {
  const clock = manualClock();
  const server = await start({ clock, eventLogRetentionMs: 60_000 });
  const { interrupt } = await askToDeploy(server, "t-status");
  await resume(server, {
    threadId: "t-status",
    runId: "run-s",
    interruptId: interrupt.id,
    key: "k",
    payload: APPROVE,
  });
  const status = RunStatusSchema.parse(await (await fetch(`${server.url}/agent/runs/run-s`)).json());
  expect(status).toMatchObject({ runId: "run-s", threadId: "t-status", status: "finished", lastSeq: 6 });
  expect(status.terminal).toMatchObject({ type: "RUN_FINISHED" });

  clock.advance(60_001);
  const expired = await reattach(server, "run-s", { after: 0 });
  expect(expired.status).toBe(410);
  expect(await expired.json()).toMatchObject({ error: { code: "EVENT_LOG_EXPIRED" } });
  // The outcome record outlives the log: a duplicate still replays instead of running again.
  const duplicate = await resume(server, {
    threadId: "t-status",
    runId: "run-s",
    interruptId: interrupt.id,
    key: "k",
    payload: APPROVE,
  });
  expect(duplicate.events.at(-1)?.type).toBe("RUN_FINISHED");
  expect(await ledger(server)).toHaveLength(1);
});
