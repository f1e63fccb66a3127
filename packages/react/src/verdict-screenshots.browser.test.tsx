import { type EntryState, MemoryStore, type OutboxEntry } from "@agui-outbox/core";
import { cleanup, screen, waitFor } from "@testing-library/react";
import { afterEach, expect, test } from "vitest";
import { page } from "vitest/browser";
import { DefaultApprovalCard } from "./default-approval-card";
import "./styles.css";
import { FakeAgent } from "./test-util/fake-agent";
import { FIXED_NOW, makeClient, renderWithClient } from "./test-util/render-client";
import type { CountdownClock } from "./use-retry-countdown";
import { useThread } from "./use-thread";

// One picture of the default card per verdict state, saved as a test artifact
// (the root .gitignore ignores .test-output). Each state is seeded straight into
// the outbox store, as a reload would find it.
const SCREENSHOTS = "../../../.test-output/screenshots";
const THREAD = "thread-shots";
const disposers: Array<() => void> = [];

afterEach(() => {
  cleanup();
  for (const dispose of disposers.splice(0)) dispose();
});

const frozenClock: CountdownClock = { now: () => FIXED_NOW, setInterval: () => 0, clearInterval: () => {} };

function seededEntry(interruptId: string, state: EntryState, extra: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    key: `key-${state}`,
    namespace: "user-1",
    threadId: THREAD,
    interruptId,
    toolCallId: interruptId,
    runId: `run-${state}`,
    body: "{}",
    decision: { kind: "approve", editedArgs: { target: "staging" } },
    state,
    attempts: 1,
    nextAttemptAt: null,
    cursor: { runId: `run-${state}`, lastSeq: 0, acked: false },
    lastError: null,
    verdictDetail: null,
    everSent: true,
    createdAt: FIXED_NOW - 60_000,
    updatedAt: FIXED_NOW - 1_000,
    expiresAt: FIXED_NOW + 82_800_000,
    ...extra,
  };
}

function Card(props: { interruptId: string }) {
  useThread(THREAD);
  return (
    <div className="shot">
      <DefaultApprovalCard threadId={THREAD} interruptId={props.interruptId} clock={frozenClock} />
    </div>
  );
}

interface Case {
  readonly name: string;
  readonly state: EntryState | null;
  readonly extra?: Partial<OutboxEntry>;
  readonly sentence: string;
  readonly button?: string;
}

const cases: readonly Case[] = [
  { name: "unanswered", state: null, sentence: "", button: "Approve" },
  { name: "applied", state: "applied", sentence: "Applied.", button: "Dismiss" },
  {
    name: "applied-replayed",
    state: "applied",
    extra: {
      replayed: true,
      verdictDetail: "The answer had already taken effect; the server replayed its outcome.",
    },
    sentence: "Applied (the server replayed its record).",
  },
  {
    name: "elsewhere",
    state: "elsewhere",
    extra: { verdictDetail: "The question was already answered differently elsewhere." },
    sentence: "Answered elsewhere: The question was already answered differently elsewhere.",
  },
  {
    name: "retry_wait",
    state: "retry_wait",
    extra: {
      nextAttemptAt: FIXED_NOW + 12_000,
      attempts: 2,
      lastError: { kind: "http", status: 429, message: "HTTP 429" },
    },
    sentence: "Server busy (429) — retrying in 12 s.",
    button: "Retry now",
  },
  { name: "paused", state: "paused", sentence: "Sign in again to send. Your answer is kept." },
  {
    name: "lost",
    state: "lost",
    sentence: "Outcome unknown — the tool may have run. Your answer is kept.",
    button: "Resend as a message",
  },
  {
    name: "needs_user",
    state: "needs_user",
    extra: {
      verdictDetail:
        "This question is no longer open on the server. Your answer is kept; refresh to see what is.",
      lastError: { kind: "run_error", code: "APPROVAL_RESUME_EXPIRED", message: "The interrupt expired." },
    },
    sentence: "This question is no longer open on the server. Your answer is kept; refresh to see what is.",
  },
  {
    name: "expired",
    state: "expired",
    sentence: "Expired before its outcome could be confirmed. Your answer is kept.",
  },
];

for (const shot of cases) {
  test(`the default card in state ${shot.name}`, async () => {
    const agent = new FakeAgent();
    const interruptId = agent.seedDeployQuestion(THREAD);
    const store = new MemoryStore();
    if (shot.state) await store.put(seededEntry(interruptId, shot.state, shot.extra));
    const client = makeClient(agent, { storage: store, deps: { now: () => FIXED_NOW } });
    disposers.push(() => client.dispose());
    renderWithClient(client, <Card interruptId={interruptId} />, agent);
    const card = await screen.findByTestId("approval-card");
    await screen.findByRole("heading", { name: "Deploy to prod?" });
    await waitFor(() => expect(card.getAttribute("data-state")).toBe(shot.state ?? "unanswered"));
    expect(screen.getByTestId("approval-status").textContent).toBe(shot.sentence);
    if (shot.state)
      expect(screen.getByTestId("approval-decision").textContent).toBe("You approved with target = staging.");
    if (shot.button) expect(screen.getByRole("button", { name: shot.button })).toBeTruthy();
    const path = await page.screenshot({ element: card, path: `${SCREENSHOTS}/card-${shot.name}.png` });
    expect(path).toContain(`card-${shot.name}.png`);
  });
}
