import { expect, test } from "vitest";
import type { MockServer } from "../src/index";
import {
  APPROVE,
  addFaults,
  askToDeploy,
  gatedSleep,
  ledger,
  plainResumeBody,
  post,
  postAndRead,
  postStream,
  resumeBody,
  start,
  terminal,
  xResume,
} from "./support/harness";
import { SseReader } from "./support/sse-reader";

async function states(server: MockServer, threadId: string) {
  const response = await fetch(`${server.url}/__occurrences?threadId=${threadId}`);
  return ((await response.json()) as { occurrences: { state: string }[] }).occurrences.map((o) => o.state);
}

test("a delay before the response holds the request in flight with nothing claimed, then it applies once", async () => {
  const gate = gatedSleep();
  const server = await start({ sleep: gate.sleep });
  const { interrupt } = await askToDeploy(server, "t-hold");
  await addFaults(server, [{ point: "before-response", action: "delay", delayMs: 5000 }]);
  const spec = { threadId: "t-hold", runId: "r1", interruptId: interrupt.id, key: "k1", payload: APPROVE };
  const pending = post(server, resumeBody(spec), { "idempotency-key": spec.key });
  await expect.poll(() => gate.pending).toBe(1);
  expect(await states(server, "t-hold")).toEqual(["PENDING"]);

  gate.releaseAll();
  const reader = new SseReader(await pending);
  await reader.waitFor(() => gate.pending === 1); // the tool
  gate.releaseAll();
  await reader.done;
  expect(terminal(reader).type).toBe("RUN_FINISHED");
  expect(await ledger(server)).toHaveLength(1);
});

test("a delay after the claim: the ack is out, the occurrence is claimed, the tool has not run yet", async () => {
  const gate = gatedSleep();
  const server = await start({ sleep: gate.sleep });
  const { interrupt } = await askToDeploy(server, "t-after-claim-delay");
  await addFaults(server, [{ point: "after-claim", action: "delay", delayMs: 5000 }]);
  const { reader } = await postStream(
    server,
    resumeBody({
      threadId: "t-after-claim-delay",
      runId: "r1",
      interruptId: interrupt.id,
      key: "k1",
      payload: APPROVE,
    }),
    { "idempotency-key": "k1" },
  );
  await reader.waitFor(() => reader.frames.length === 1 && gate.pending === 1);
  expect(xResume(reader.events[0])).toMatchObject({ ack: "claimed" });
  expect(await states(server, "t-after-claim-delay")).toEqual(["CLAIMED"]);
  expect(await ledger(server)).toHaveLength(0);

  gate.releaseAll(); // the delay
  await reader.waitFor(() => gate.pending === 1); // the tool
  gate.releaseAll();
  await reader.done;
  expect(terminal(reader).type).toBe("RUN_FINISHED");
  expect(await ledger(server)).toHaveLength(1);
});

test("a delay after the tool: the result is stored before the run finishes", async () => {
  const gate = gatedSleep();
  const server = await start({ sleep: gate.sleep });
  const { interrupt } = await askToDeploy(server, "t-after-tool-delay");
  await addFaults(server, [{ point: "after-tool", action: "delay", delayMs: 5000 }]);
  const { reader } = await postStream(
    server,
    resumeBody({
      threadId: "t-after-tool-delay",
      runId: "r1",
      interruptId: interrupt.id,
      key: "k1",
      payload: APPROVE,
    }),
    { "idempotency-key": "k1" },
  );
  await reader.waitFor(() => gate.pending === 1); // the tool
  gate.releaseAll();
  await reader.waitFor((r) => r.types.includes("TOOL_CALL_RESULT") && gate.pending === 1); // the delay
  expect(await states(server, "t-after-tool-delay")).toEqual(["EXECUTED"]);
  expect(terminal(reader).type).toBe("TOOL_CALL_RESULT");
  gate.releaseAll();
  await reader.done;
  expect(terminal(reader).type).toBe("RUN_FINISHED");
  expect(await ledger(server)).toHaveLength(1);
});

test("delays work in the Agent Framework emulations too", async () => {
  const server = await start({ mode: "af-legacy" });
  const { interrupt } = await askToDeploy(server, "t-af-delay");
  await addFaults(server, [{ point: "after-tool", action: "delay", delayMs: 1 }]);
  const reader = await postAndRead(
    server,
    plainResumeBody("t-af-delay", "r1", interrupt.id, { accepted: true }),
  );
  expect(terminal(reader).type).toBe("RUN_FINISHED");
  expect(await ledger(server)).toHaveLength(1);
});

test("a delay cannot be put on mid-stream", async () => {
  const server = await start();
  const response = await fetch(`${server.url}/__chaos`, {
    method: "POST",
    body: JSON.stringify({ faults: [{ point: "mid-stream", action: "delay" }] }),
  });
  expect(response.status).toBe(400);
});
