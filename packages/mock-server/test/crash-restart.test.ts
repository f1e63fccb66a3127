import { expect, test } from "vitest";
import {
  APPROVE,
  addFaults,
  askToDeploy,
  ledger,
  manualClock,
  post,
  reattach,
  resume,
  resumeBody,
  start,
  tempStatePath,
  terminal,
  xResume,
} from "./support/harness";
import { SseReader } from "./support/sse-reader";

const LEASE_MS = 1_000;

/** A server over a file store with a hand-moved clock, and a way to crash and restart it. */
async function crashableServer() {
  const path = tempStatePath();
  const clock = manualClock();
  const options = { store: { kind: "file", path } as const, clock, claimLeaseMs: LEASE_MS };
  return { clock, first: await start(options), restart: () => start(options) };
}

/** Sends a resume that the armed crash fault kills; returns what the client saw. */
async function resumeIntoCrash(server: Awaited<ReturnType<typeof start>>, body: string, key: string) {
  const response = await post(server, body, { "idempotency-key": key });
  const reader = response.status === 200 ? new SseReader(response) : undefined;
  const info = await server.crashed;
  return { info, reader, ending: await reader?.done };
}

test("a crash after the claim: restart, the lease holds, then expires, and the retry runs the tool once", async () => {
  const { clock, first, restart } = await crashableServer();
  const { interrupt } = await askToDeploy(first, "t-crash-claim");
  await addFaults(first, [{ point: "after-claim", action: "crash" }]);
  const spec = {
    threadId: "t-crash-claim",
    runId: "run-cc",
    interruptId: interrupt.id,
    key: "key-cc",
    payload: APPROVE,
  };

  const crash = await resumeIntoCrash(first, resumeBody(spec), spec.key);
  expect(crash.info.point).toBe("after-claim");
  expect(crash.reader?.frames.length).toBe(1);
  expect(xResume(crash.reader?.events[0])).toMatchObject({ ack: "claimed" });
  expect(crash.ending).toBe("error");

  const second = await restart();
  expect(await ledger(second)).toHaveLength(0);
  // The dead attempt was closed on start: re-attach ends with a RUN_ERROR, the status says error.
  const orphan = new SseReader(await reattach(second, "run-cc", { lastEventId: "run-cc:1" }));
  await orphan.done;
  expect(orphan.types).toEqual(["RUN_ERROR"]);
  expect(orphan.frames[0]?.id).toBe("run-cc:2");
  const status = (await (await fetch(`${second.url}/agent/runs/run-cc`)).json()) as Record<string, unknown>;
  expect(status).toMatchObject({ status: "error", lastSeq: 2 });
  // The dead instance's claim is still leased: a retry is told who holds it, nothing runs.
  const early = await resume(second, spec);
  expect(terminal(early)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_IN_PROGRESS" });
  expect(xResume(terminal(early))).toMatchObject({ claimedBy: "run-cc" });
  expect(await ledger(second)).toHaveLength(0);

  clock.advance(LEASE_MS + 1);
  const retried = await resume(second, spec);
  expect(terminal(retried)).toMatchObject({ type: "RUN_FINISHED", runId: "run-cc" });
  expect(xResume(retried.events[0])).toMatchObject({ ack: "claimed", runId: "run-cc" });
  expect(await ledger(second)).toHaveLength(1);
});

test("a crash after the tool: the stored result survives the restart and the retry re-uses it", async () => {
  const { clock, first, restart } = await crashableServer();
  const { interrupt } = await askToDeploy(first, "t-crash-tool");
  await addFaults(first, [{ point: "after-tool", action: "crash" }]);
  const spec = {
    threadId: "t-crash-tool",
    runId: "run-ct",
    interruptId: interrupt.id,
    key: "key-ct",
    payload: APPROVE,
  };
  const crash = await resumeIntoCrash(first, resumeBody(spec), spec.key);
  expect(crash.info.point).toBe("after-tool");

  const second = await restart();
  expect(await ledger(second)).toHaveLength(1);
  clock.advance(LEASE_MS + 1);
  const retried = await resume(second, spec);
  expect(terminal(retried).type).toBe("RUN_FINISHED");
  expect(retried.types).toContain("TOOL_CALL_RESULT");
  expect(await ledger(second)).toHaveLength(1);
});

test("a crash mid-tool: after the restart the occurrence is INDETERMINATE and is never re-run", async () => {
  const { clock, first, restart } = await crashableServer();
  const { interrupt } = await askToDeploy(first, "t-crash-mid");
  await addFaults(first, [{ point: "mid-tool", action: "crash" }]);
  const spec = {
    threadId: "t-crash-mid",
    runId: "run-cm",
    interruptId: interrupt.id,
    key: "key-cm",
    payload: APPROVE,
  };
  await resumeIntoCrash(first, resumeBody(spec), spec.key);

  const second = await restart();
  expect(await ledger(second)).toHaveLength(1);
  clock.advance(LEASE_MS + 1);
  for (const retry of [spec, { ...spec, runId: "run-cm-2", key: "key-cm-2" }]) {
    const reader = await resume(second, retry);
    expect(terminal(reader)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_INDETERMINATE" });
  }
  expect(await ledger(second)).toHaveLength(1);
});

test("threads, outcome records, event logs and the ledger survive a restart", async () => {
  const { first, restart } = await crashableServer();
  const { interrupt } = await askToDeploy(first, "t-durable");
  const spec = {
    threadId: "t-durable",
    runId: "run-d",
    interruptId: interrupt.id,
    key: "key-d",
    payload: APPROVE,
  };
  const applied = await resume(first, spec);
  await addFaults(first, [{ point: "before-response", action: "crash" }]);
  const killed = await post(first, JSON.stringify({ threadId: "t-durable", runId: "h", messages: [] })).catch(
    (error: unknown) => error,
  );
  expect(killed).toBeInstanceOf(Error);
  await first.crashed;

  const second = await restart();
  expect(await ledger(second)).toHaveLength(1);
  const log = new SseReader(await reattach(second, "run-d"));
  await log.done;
  expect(log.frames).toEqual(applied.frames);
  const duplicate = await resume(second, spec);
  expect(xResume(terminal(duplicate))).toEqual({ replayed: true, originalRunId: "run-d" });
  expect(await ledger(second)).toHaveLength(1);
});
