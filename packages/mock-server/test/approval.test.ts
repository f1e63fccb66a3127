import { expect, test } from "vitest";
import {
  APPROVE,
  askToDeploy,
  ledger,
  postAndRead,
  resume,
  start,
  terminal,
  userTurn,
  xResume,
} from "./support/harness";

test("a deploy request ends in an interrupt that asks for approval with a response schema", async () => {
  const server = await start();
  const { reader, interrupt } = await askToDeploy(server, "t-ask", "please deploy to prod");
  expect(reader.types).toEqual([
    "RUN_STARTED",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "TOOL_CALL_START",
    "TOOL_CALL_ARGS",
    "TOOL_CALL_END",
    "RUN_FINISHED",
  ]);
  const start_ = reader.events.find((event) => event.type === "TOOL_CALL_START");
  expect(start_?.toolCallName).toBe("deploy_change");
  expect(JSON.parse(String(reader.events.find((event) => event.type === "TOOL_CALL_ARGS")?.delta))).toEqual({
    target: "prod",
  });
  expect(interrupt).toMatchObject({
    id: start_?.toolCallId,
    reason: "tool_call",
    toolCallId: start_?.toolCallId,
    message: "Deploy to prod?",
  });
  expect(interrupt.responseSchema).toMatchObject({ type: "object", required: ["approved"] });
  expect(Date.parse(String(interrupt.expiresAt))).toBeGreaterThan(Date.now());
  expect(await ledger(server)).toHaveLength(0);
});

test("no target named deploys to staging; a message without 'deploy' gets a plain reply", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-staging", "deploy it please");
  expect(interrupt.message).toBe("Deploy to staging?");

  const chat = await postAndRead(server, userTurn("t-chat", "chat-1", "hello there"));
  expect(chat.types).not.toContain("TOOL_CALL_START");
  expect(terminal(chat)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
  expect(await ledger(server)).toHaveLength(0);
});

test("approve: the tool runs once, then a text turn and RUN_FINISHED after the claim ack", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-approve");
  const reader = await resume(server, {
    threadId: "t-approve",
    runId: "run-approve",
    interruptId: interrupt.id,
    key: "key-approve",
    payload: APPROVE,
  });
  expect(reader.types).toEqual([
    "RUN_STARTED",
    "TOOL_CALL_RESULT",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "RUN_FINISHED",
  ]);
  expect(xResume(reader.events[0])).toEqual({
    ack: "claimed",
    interruptIds: [interrupt.id],
    idempotencyKey: "key-approve",
    runId: "run-approve",
  });
  expect(reader.events.find((event) => event.type === "TEXT_MESSAGE_CONTENT")?.delta).toBe(
    "Deployed to prod.",
  );
  expect(terminal(reader).outcome).toEqual({ type: "success" });
  const executions = await ledger(server);
  expect(executions).toHaveLength(1);
  expect(executions[0]).toMatchObject({
    threadId: "t-approve",
    toolCallId: interrupt.toolCallId,
    name: "deploy_change",
    args: { target: "prod" },
  });
});

test("edited arguments are what the tool runs with", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-edit", "please deploy to prod");
  const reader = await resume(server, {
    threadId: "t-edit",
    runId: "run-edit",
    interruptId: interrupt.id,
    key: "key-edit",
    payload: { approved: true, editedArgs: { target: "canary" } },
  });
  expect(reader.events.find((event) => event.type === "TEXT_MESSAGE_CONTENT")?.delta).toBe(
    "Deployed to canary.",
  );
  const executions = await ledger(server);
  expect(executions.map((entry) => entry.args)).toEqual([{ target: "canary" }]);
});

test("reject: no tool runs and the agent says so", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-reject");
  const reader = await resume(server, {
    threadId: "t-reject",
    runId: "run-reject",
    interruptId: interrupt.id,
    key: "key-reject",
    payload: { approved: false },
  });
  expect(reader.types).not.toContain("TOOL_CALL_RESULT");
  expect(reader.events.find((event) => event.type === "TEXT_MESSAGE_CONTENT")?.delta).toBe(
    "Okay, I won't deploy.",
  );
  expect(terminal(reader)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
  expect(await ledger(server)).toHaveLength(0);
});

test("cancel: no tool runs, the run finishes, and the occurrence stays cancelled", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-cancel");
  const reader = await resume(server, {
    threadId: "t-cancel",
    runId: "run-cancel",
    interruptId: interrupt.id,
    key: "key-cancel",
    status: "cancelled",
  });
  expect(reader.types).not.toContain("TOOL_CALL_RESULT");
  expect(terminal(reader)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });

  // An approval arriving after the cancellation cannot run the tool.
  const late = await resume(server, {
    threadId: "t-cancel",
    runId: "run-cancel-late",
    interruptId: interrupt.id,
    key: "key-cancel-late",
    payload: APPROVE,
  });
  expect(terminal(late)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_ALREADY_RESOLVED" });
  expect(xResume(terminal(late))?.recordedDecisions).toEqual([
    { interruptId: interrupt.id, status: "cancelled" },
  ]);
  expect(await ledger(server)).toHaveLength(0);
});

test("hydration replays the thread's messages and its open interrupt, and changes nothing", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-hydrate");
  let hydrations = 0;
  const hydrate = () => {
    hydrations += 1;
    return postAndRead(
      server,
      JSON.stringify({ threadId: "t-hydrate", runId: `h-${hydrations}`, messages: [] }),
    );
  };

  const first = await hydrate();
  expect(first.types).toEqual(["RUN_STARTED", "MESSAGES_SNAPSHOT", "RUN_FINISHED"]);
  const messages = first.events[1]?.messages as { role: string; toolCalls?: { id: string }[] }[];
  expect(messages.map((message) => message.role)).toEqual(["user", "assistant"]);
  expect(messages[1]?.toolCalls?.[0]?.id).toBe(interrupt.toolCallId);
  expect(terminal(first).outcome).toEqual({ type: "interrupt", interrupts: [interrupt] });

  // Hydrating again answers the same: it claimed or resolved nothing.
  const second = await hydrate();
  expect(terminal(second).outcome).toEqual({ type: "interrupt", interrupts: [interrupt] });
  expect(await ledger(server)).toHaveLength(0);

  await resume(server, {
    threadId: "t-hydrate",
    runId: "run-hydrate-approve",
    interruptId: interrupt.id,
    key: "key-hydrate",
    payload: APPROVE,
  });
  const after = await hydrate();
  const roles = ((after.events[1]?.messages ?? []) as { role: string }[]).map((message) => message.role);
  expect(roles).toEqual(["user", "assistant", "tool", "assistant"]);
  expect(terminal(after).outcome).toEqual({ type: "success" });
  expect(await ledger(server)).toHaveLength(1);
});

test("a new user message while an interrupt is open gets APPROVAL_RESUME_REQUIRED", async () => {
  const server = await start();
  await askToDeploy(server, "t-required");
  const reader = await postAndRead(server, userTurn("t-required", "run-required", "deploy to staging too"));
  expect(terminal(reader)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_REQUIRED" });
  expect(await ledger(server)).toHaveLength(0);
});

test("the ledger can be read for one thread", async () => {
  const server = await start();
  for (const threadId of ["t-ledger-a", "t-ledger-b"]) {
    const { interrupt } = await askToDeploy(server, threadId);
    await resume(server, {
      threadId,
      runId: `${threadId}-r`,
      interruptId: interrupt.id,
      key: threadId,
      payload: APPROVE,
    });
  }
  const response = await fetch(`${server.url}/__ledger?threadId=t-ledger-b`);
  const body = (await response.json()) as { executions: { threadId: string }[] };
  expect(body.executions.map((entry) => entry.threadId)).toEqual(["t-ledger-b"]);
  expect(await ledger(server)).toHaveLength(2);
});
