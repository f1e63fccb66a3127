import { MemoryStore } from "@agui-outbox/core";
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, expect, test } from "vitest";
import { DefaultApprovalCard } from "./default-approval-card";
import { DEPLOY_SCHEMA, FakeAgent } from "./test-util/fake-agent";
import { FIXED_NOW, makeClient, manualSignal, renderWithClient } from "./test-util/render-client";
import { useApproval } from "./use-approval";
import { useApprovals } from "./use-approvals";
import { useCapabilities } from "./use-capabilities";
import { useConnection } from "./use-connection";
import { useEntryEvents } from "./use-entry-events";
import { useOutbox } from "./use-outbox";
import type { CountdownClock } from "./use-retry-countdown";
import { useThread } from "./use-thread";

const THREAD = "thread-1";
const disposers: Array<() => void> = [];

afterEach(() => {
  cleanup();
  for (const dispose of disposers.splice(0)) dispose();
});

const frozenClock: CountdownClock = {
  now: () => FIXED_NOW,
  setInterval: () => 0,
  clearInterval: () => {},
};

function ThreadView(props: { clock?: CountdownClock }) {
  const thread = useThread(THREAD);
  const approvals = useApprovals(THREAD);
  return (
    <div>
      <p data-testid="run">{thread.run.name}</p>
      <ul aria-label="messages">
        {thread.messages.map((message) => (
          <li
            key={message.id}
          >{`${message.role}: ${typeof message.content === "string" ? message.content : ""}`}</li>
        ))}
      </ul>
      <ul aria-label="pending">
        {thread.pendingInterrupts.map((interrupt) => (
          <li key={interrupt.id}>{interrupt.message}</li>
        ))}
      </ul>
      <button type="button" onClick={() => void thread.send("please deploy to prod").catch(() => {})}>
        Send
      </button>
      {approvals.map(({ interruptId }) => (
        <DefaultApprovalCard
          key={interruptId}
          threadId={THREAD}
          interruptId={interruptId}
          {...(props.clock ? { clock: props.clock } : {})}
        />
      ))}
    </div>
  );
}

function Tray() {
  const outbox = useOutbox();
  return (
    <ul aria-label="outbox">
      {outbox.entries.map((entry) => (
        <li key={entry.key}>{`${entry.state} attempts=${entry.attempts}`}</li>
      ))}
    </ul>
  );
}

function setup(agent = new FakeAgent(), options: Parameters<typeof makeClient>[1] = {}) {
  const client = makeClient(agent, options);
  disposers.push(() => client.dispose());
  return { agent, client };
}

async function askForDeployment() {
  fireEvent.click(screen.getByRole("button", { name: "Send" }));
  await screen.findByRole("heading", { name: "Deploy to prod?" });
}

test("useThread hydrates on mount, then shows the reply and the pending interrupt after send", async () => {
  const { agent, client } = setup();
  renderWithClient(client, <ThreadView />);
  await waitFor(() => expect(agent.count("hydrate")).toBe(1));
  await askForDeployment();
  const messages = screen.getByRole("list", { name: "messages" });
  expect(messages.textContent).toContain("user: please deploy to prod");
  expect(messages.textContent).toContain("assistant: I can do that.");
  expect(screen.getByRole("list", { name: "pending" }).textContent).toBe("Deploy to prod?");
  expect(screen.getByTestId("run").textContent).toBe("interrupted");
  expect(screen.getByTestId("approval-card").getAttribute("data-state")).toBe("unanswered");
});

test("approving moves the card to applied and lists one entry in the outbox", async () => {
  const { agent, client } = setup();
  renderWithClient(
    client,
    <>
      <ThreadView />
      <Tray />
    </>,
  );
  await askForDeployment();
  expect(screen.getByRole("textbox", { name: /Target/ }).getAttribute("value")).toBe("prod");
  fireEvent.click(screen.getByRole("button", { name: "Approve" }));
  await waitFor(() => expect(screen.getByTestId("approval-status").textContent).toBe("Applied."));
  expect(screen.getByTestId("approval-card").getAttribute("data-state")).toBe("applied");
  expect(screen.getByTestId("approval-decision").textContent).toBe("You approved.");
  expect(screen.getByRole("list", { name: "outbox" }).textContent).toBe("applied attempts=1");
  expect(agent.count("resume")).toBe(1);
  // The verdict outlives the interrupt: the thread dropped it, the card stays.
  expect(screen.getByRole("list", { name: "pending" }).textContent).toBe("");
});

test("editing the target sends it as editedArgs", async () => {
  const { client } = setup();
  renderWithClient(client, <ThreadView />);
  await askForDeployment();
  fireEvent.change(screen.getByRole("textbox", { name: /Target/ }), { target: { value: "staging" } });
  fireEvent.click(screen.getByRole("button", { name: "Approve with edits" }));
  await waitFor(() => expect(screen.getByTestId("approval-status").textContent).toBe("Applied."));
  expect(screen.getByTestId("approval-decision").textContent).toBe("You approved with target = staging.");
  const entry = client.outbox.getState().entries[0];
  expect(entry?.decision).toEqual({ kind: "approve", editedArgs: { target: "staging" } });
});

test("the editor validates as the person types and an invalid answer creates no entry", async () => {
  const { agent, client } = setup();
  renderWithClient(client, <ThreadView />);
  await askForDeployment();
  const target = screen.getByRole("textbox", { name: /Target/ });
  expect(target.getAttribute("aria-invalid")).toBeNull();
  fireEvent.change(target, { target: { value: "" } });
  expect(target.getAttribute("aria-invalid")).toBe("true");
  const error = screen.getByTestId("approval-error-target");
  expect(error.textContent).toBe("Required.");
  expect(target.getAttribute("aria-describedby")).toBe(error.id);
  fireEvent.click(screen.getByRole("button", { name: /Approve/ }));
  // Let any write that (wrongly) started settle before checking nothing was enqueued.
  await act(async () => {
    await client.start();
  });
  expect(client.outbox.getState().entries).toEqual([]);
  expect(agent.count("resume")).toBe(0);
  fireEvent.change(target, { target: { value: "canary" } });
  expect(target.getAttribute("aria-invalid")).toBeNull();
  expect(screen.queryByTestId("approval-error-target")).toBeNull();
});

test("a double click on Approve makes one entry and one request", async () => {
  const { agent, client } = setup();
  renderWithClient(client, <ThreadView />);
  await askForDeployment();
  const approve = screen.getByRole("button", { name: "Approve" });
  fireEvent.click(approve);
  fireEvent.click(approve);
  await waitFor(() => expect(screen.getByTestId("approval-status").textContent).toBe("Applied."));
  expect(client.outbox.getState().entries).toHaveLength(1);
  expect(agent.count("resume")).toBe(1);
});

function ApproveTwice(props: { interruptId: string }) {
  const approval = useApproval(THREAD, props.interruptId);
  return (
    <button
      type="button"
      onClick={() => {
        void approval.answer(true);
        void approval.answer(true);
      }}
    >
      Twice
    </button>
  );
}

test("useApproval ignores a second answer() while the first is being written", async () => {
  const agent = new FakeAgent();
  const interruptId = agent.seedDeployQuestion(THREAD);
  const { client } = setup(agent);
  renderWithClient(
    client,
    <>
      <ThreadView />
      <ApproveTwice interruptId={interruptId} />
    </>,
  );
  await screen.findByRole("heading", { name: "Deploy to prod?" });
  fireEvent.click(screen.getByRole("button", { name: "Twice" }));
  await waitFor(() => expect(screen.getByTestId("approval-status").textContent).toBe("Applied."));
  expect(client.outbox.getState().entries).toHaveLength(1);
  expect(agent.count("resume")).toBe(1);
});

test("retry_wait shows the countdown and Retry now sends again at once", async () => {
  const agent = new FakeAgent();
  agent.resumeScripts.push({ kind: "status", status: 503, retryAfterSeconds: 30 });
  const { client } = setup(agent, { deps: { now: () => FIXED_NOW } });
  renderWithClient(
    client,
    <>
      <ThreadView clock={frozenClock} />
      <Tray />
    </>,
  );
  await askForDeployment();
  fireEvent.click(screen.getByRole("button", { name: "Approve" }));
  await waitFor(() =>
    expect(screen.getByTestId("approval-status").textContent).toBe(
      "Server unavailable (503) — retrying in 30 s.",
    ),
  );
  expect(screen.getByRole("list", { name: "outbox" }).textContent).toBe("retry_wait attempts=1");
  fireEvent.click(screen.getByRole("button", { name: "Retry now" }));
  await waitFor(() => expect(screen.getByTestId("approval-status").textContent).toBe("Applied."));
  expect(agent.count("resume")).toBe(2);
  // The retry carried the same idempotency key.
  const keys = agent.requests
    .filter((request) => request.kind === "resume")
    .map((request) => request.idempotencyKey);
  expect(new Set(keys).size).toBe(1);
});

test("a stalled answer says why, shows no countdown, and Retry now sends it again with the same key", async () => {
  const agent = new FakeAgent();
  // One send is the whole budget: a 503 spends it, the thread check finds the
  // question still open and nothing run, the one resend that allows is refused
  // too, and the answer stalls (kept, not final).
  agent.resumeScripts.push({ kind: "status", status: 503 }, { kind: "status", status: 503 });
  const { client } = setup(agent, { retry: { budget: { maxAttempts: 1 } } });
  renderWithClient(
    client,
    <>
      <ThreadView clock={frozenClock} />
      <Tray />
    </>,
  );
  await askForDeployment();
  fireEvent.click(screen.getByRole("button", { name: "Approve" }));
  await waitFor(() =>
    expect(screen.getByTestId("approval-status").textContent).toBe(
      "Delivery kept failing on the server's side; it resumes when you retry or come back. Your answer is kept and will be sent again with the same key.",
    ),
  );
  expect(screen.getByRole("list", { name: "outbox" }).textContent).toBe("stalled attempts=2");
  expect(agent.count("resume")).toBe(2);
  // Nothing is scheduled, so neither the line nor the button counts down.
  expect(screen.getByRole("button", { name: "Retry now" }).textContent).toBe("Retry now");
  fireEvent.click(screen.getByRole("button", { name: "Retry now" }));
  await waitFor(() => expect(screen.getByTestId("approval-status").textContent).toBe("Applied."));
  expect(agent.count("resume")).toBe(3);
  const keys = agent.requests
    .filter((request) => request.kind === "resume")
    .map((request) => request.idempotencyKey);
  expect(new Set(keys).size).toBe(1);
});

test("a lost answer is kept, explained, and can be resent as a message", async () => {
  const agent = new FakeAgent();
  agent.resumeScripts.push({ kind: "run_error", code: "APPROVAL_RESUME_INDETERMINATE", afterAck: true });
  const { client } = setup(agent);
  renderWithClient(client, <ThreadView />);
  await askForDeployment();
  fireEvent.change(screen.getByRole("textbox", { name: /Target/ }), { target: { value: "staging" } });
  fireEvent.click(screen.getByRole("button", { name: "Approve with edits" }));
  await waitFor(() =>
    expect(screen.getByTestId("approval-status").textContent).toBe(
      "Outcome unknown — the tool may have run. Your answer is kept.",
    ),
  );
  expect(screen.getByTestId("approval-decision").textContent).toBe("You approved with target = staging.");
  // The explanation is inside the card: what may have happened and what each action does.
  const card = screen.getByTestId("approval-card");
  expect(card.contains(screen.getByTestId("lost-explanation"))).toBe(true);
  expect(screen.getByTestId("lost-explanation").textContent).toContain("The agent may run the tool again.");
  const messagesBefore = agent.count("message");
  // Resending asks first: it may cause the tool to run again.
  fireEvent.click(screen.getByRole("button", { name: "Resend as a message" }));
  expect(agent.count("message")).toBe(messagesBefore);
  expect(card.textContent).toContain("This may cause the tool to run again.");
  fireEvent.click(screen.getByRole("button", { name: "Send the message" }));
  await waitFor(() => expect(agent.count("message")).toBe(messagesBefore + 1));
  expect(screen.getByRole("list", { name: "messages" }).textContent).toContain(
    'My earlier answer to "Deploy to prod?" may not have arrived: I approved it with target = staging.',
  );
  // The lost entry stays on screen, marked as resent, until the person dismisses it.
  await screen.findByTestId("resent");
  expect(client.outbox.getState().entries.map((entry) => entry.state)).toEqual(["lost"]);
  expect(screen.queryByRole("button", { name: "Resend as a message" })).toBeNull();
  fireEvent.click(screen.getByRole("button", { name: "Dismiss" }));
  await waitFor(() => expect(client.outbox.getState().entries).toEqual([]));
});

test("after Approve or Reject, focus moves to the card's status line", async () => {
  const { client } = setup();
  renderWithClient(client, <ThreadView />);
  await askForDeployment();
  const reject = screen.getByRole("button", { name: "Reject" });
  reject.focus();
  fireEvent.click(reject);
  await waitFor(() => expect(screen.getByTestId("approval-status").textContent).toBe("Rejection delivered."));
  expect(document.activeElement).toBe(screen.getByTestId("approval-status"));
});

function RejectWithReason(props: { interruptId: string }) {
  const approval = useApproval(THREAD, props.interruptId);
  return (
    <button
      type="button"
      onClick={() => void approval.answer({ approved: false, reason: "not on a Friday" })}
    >
      Reject with a reason
    </button>
  );
}

test("a reason never makes a valid rejection invalid: kept with the entry, sent only where the schema declares it", async () => {
  const agent = new FakeAgent();
  const interruptId = agent.seedDeployQuestion(THREAD);
  const { client } = setup(agent);
  renderWithClient(
    client,
    <>
      <ThreadView />
      <RejectWithReason interruptId={interruptId} />
    </>,
  );
  await screen.findByRole("heading", { name: "Deploy to prod?" });
  fireEvent.click(screen.getByRole("button", { name: "Reject with a reason" }));
  // The schema is closed and has no `reason`: the answer is still written and delivered.
  await waitFor(() => expect(screen.getByTestId("approval-status").textContent).toBe("Rejection delivered."));
  expect(screen.getByTestId("approval-decision").textContent).toBe("You rejected: not on a Friday");
  expect(client.outbox.getState().entries[0]?.decision).toEqual({
    kind: "reject",
    reason: "not on a Friday",
  });
  const body = JSON.parse(client.outbox.getState().entries[0]?.body ?? "{}") as {
    resume: { payload: unknown }[];
  };
  expect(body.resume[0]?.payload).toEqual({ approved: false });
});

function ConnectionBadge() {
  const connection = useConnection();
  const capabilities = useCapabilities();
  return (
    <p data-testid="connection">
      {`${connection.link.name} online=${connection.online} recovery=${capabilities.data?.recovery?.version ?? "?"}`}
    </p>
  );
}

test("useConnection reflects the client's connection store, useCapabilities reads the contract", async () => {
  const online = manualSignal(true);
  const { agent, client } = setup(new FakeAgent(), { deps: { online } });
  renderWithClient(client, <ConnectionBadge />, agent);
  await waitFor(() =>
    expect(screen.getByTestId("connection").textContent).toBe("connected online=true recovery=1"),
  );
  act(() => online.set(false));
  expect(screen.getByTestId("connection").textContent).toBe("offline online=false recovery=1");
  act(() => online.set(true));
  expect(screen.getByTestId("connection").textContent).toBe("connected online=true recovery=1");
});

test("useOutbox lists every entry of the namespace", async () => {
  const agent = new FakeAgent();
  agent.seedDeployQuestion(THREAD, "prod");
  agent.seedDeployQuestion("thread-2", "staging");
  agent.resumeScripts.push({ kind: "status", status: 503, retryAfterSeconds: 60 });
  const { client } = setup(agent);
  renderWithClient(client, <Tray />);
  for (const threadId of [THREAD, "thread-2"]) await client.thread(threadId).hydrate();
  const [first] = client.thread(THREAD).store.getState().pendingInterrupts;
  const [second] = client.thread("thread-2").store.getState().pendingInterrupts;
  if (!first || !second) throw new Error("the seeded interrupts were not hydrated");
  await act(async () => {
    await client.answer({ threadId: THREAD, interruptId: first.id, approved: true });
  });
  await waitFor(() =>
    expect(screen.getByRole("list", { name: "outbox" }).textContent).toBe("retry_wait attempts=1"),
  );
  await act(async () => {
    await client.answer({ threadId: "thread-2", interruptId: second.id, approved: false });
  });
  await waitFor(() =>
    expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "retry_wait attempts=1",
      "applied attempts=1",
    ]),
  );
});

test("after a needs-you verdict the kept answer is shown and the person can answer again", async () => {
  const agent = new FakeAgent();
  agent.resumeScripts.push({ kind: "run_error", code: "APPROVAL_RESUME_INVALID_RESPONSE", afterAck: false });
  const { client } = setup(agent);
  renderWithClient(
    client,
    <>
      <ThreadView />
      <Tray />
    </>,
  );
  await askForDeployment();
  fireEvent.change(screen.getByRole("textbox", { name: /Target/ }), { target: { value: "staging" } });
  fireEvent.click(screen.getByRole("button", { name: "Approve with edits" }));
  await waitFor(() =>
    expect(screen.getByTestId("approval-card").getAttribute("data-state")).toBe("needs_user"),
  );
  expect(screen.getByTestId("approval-decision").textContent).toBe("You approved with target = staging.");
  // The editor starts again from the kept edits, which still count as edits.
  expect(screen.getByRole("textbox", { name: /Target/ }).getAttribute("value")).toBe("staging");
  expect(screen.getByRole("button", { name: "Approve with edits" })).toBeTruthy();
  fireEvent.change(screen.getByRole("textbox", { name: /Target/ }), { target: { value: "canary" } });
  fireEvent.click(screen.getByRole("button", { name: "Approve with edits" }));
  await waitFor(() => expect(screen.getByTestId("approval-status").textContent).toBe("Applied."));
  expect(screen.getByTestId("approval-decision").textContent).toBe("You approved with target = canary.");
  expect(agent.count("resume")).toBe(2);
  expect(
    client.outbox
      .getState()
      .entries.map((entry) => entry.state)
      .sort(),
  ).toEqual(["applied", "needs_user"]);
});

test("the question travels with the answer: a reload of a thread that no longer holds it shows the same card", async () => {
  // First session: answer the question; the entry keeps message, proposed call and schema.
  const agent = new FakeAgent();
  const store = new MemoryStore();
  const { client } = setup(agent, { storage: store });
  renderWithClient(client, <ThreadView />);
  await askForDeployment();
  fireEvent.click(screen.getByRole("button", { name: "Reject" }));
  await waitFor(() => expect(screen.getByTestId("approval-status").textContent).toBe("Rejection delivered."));
  const [kept] = await store.listByNamespace("user-1");
  expect(kept?.question).toEqual({
    message: "Deploy to prod?",
    toolName: "deploy_change",
    proposedArgs: { target: "prod" },
    responseSchema: DEPLOY_SCHEMA,
  });
  cleanup();
  client.dispose();

  // Another session over the same storage, against a server that kept nothing of the thread.
  const { client: next } = setup(new FakeAgent(), { storage: store });
  renderWithClient(next, <ThreadView />);
  const card = await screen.findByTestId("approval-card");
  await screen.findByRole("heading", { name: "Deploy to prod?" });
  expect(card.textContent).toContain("Proposed: deploy_change (target = prod)");
  expect(screen.getByTestId("approval-status").textContent).toBe("Rejection delivered.");
});

function Callbacks(props: { interruptId: string; log: string[] }) {
  const approval = useApproval(THREAD, props.interruptId, {
    onVerdict: (entry) => props.log.push(`verdict:${entry.state}`),
    onSettled: (entry, error) => props.log.push(`settled:${entry?.state ?? error?.message}`),
  });
  useEntryEvents((event) => props.log.push(`event:${event.type}:${event.entry.state}`));
  return (
    <>
      <p data-testid="phase">{`${approval.phase} paused=${approval.isPaused}`}</p>
      <button type="button" onClick={() => void approval.answer({ approved: true })}>
        Answer
      </button>
    </>
  );
}

test("onVerdict/onSettled fire once per verdict, entry events reach the app, phase follows the answer", async () => {
  const agent = new FakeAgent();
  const interruptId = agent.seedDeployQuestion(THREAD);
  agent.resumeScripts.push({ kind: "status", status: 503, retryAfterSeconds: 30 });
  const { client } = setup(agent, { deps: { now: () => FIXED_NOW } });
  const log: string[] = [];
  renderWithClient(client, <Callbacks interruptId={interruptId} log={log} />);
  await act(async () => {
    await client.thread(THREAD).hydrate();
  });
  expect(screen.getByTestId("phase").textContent).toBe("idle paused=false");
  fireEvent.click(screen.getByRole("button", { name: "Answer" }));
  await waitFor(() => expect(screen.getByTestId("phase").textContent).toBe("waiting paused=false"));
  expect(log.filter((line) => line.startsWith("verdict") || line.startsWith("settled"))).toEqual([]);
  const key = client.outbox.getState().entries[0]?.key ?? "";
  await act(async () => {
    await client.retryNow(key);
  });
  await waitFor(() => expect(screen.getByTestId("phase").textContent).toBe("settled paused=false"));
  expect(log.filter((line) => !line.startsWith("event"))).toEqual(["verdict:applied", "settled:applied"]);
  expect(log.filter((line) => line.startsWith("event"))[0]).toBe("event:added:queued");
  expect(log.filter((line) => line.startsWith("event")).at(-1)).toBe("event:verdict:applied");
});
