import { expect, test } from "vitest";
import { checkHistory } from "./check-history";
import { formatViolations, historyExcerpt } from "./describe-history";
import { CLIENT_BUDGETS, type EntryStep, type History, type HistoryStep, type RequestStep } from "./history";

const KEY = "key-aaaaaaaa";

function entry(state: string, overrides: Partial<EntryStep> = {}): EntryStep {
  return {
    kind: "entry",
    tab: 0,
    key: KEY,
    threadId: "t",
    interruptId: "i1",
    toolCallId: "call-1",
    decision: "approve",
    state,
    attempts: state === "queued" ? 0 : 1,
    lastError: null,
    ...overrides,
  };
}

function resume(answered = true, key = KEY): RequestStep {
  return { kind: "request", tab: 0, loop: "resume", key, answered };
}

/** An approval sent once, claimed, run once and applied: every promise kept. */
function applied(overrides: Partial<History> = {}): History {
  return {
    threadId: "t",
    asked: ["i1"],
    steps: [
      { kind: "load", tab: 0 },
      entry("queued"),
      entry("sending"),
      resume(),
      entry("streaming"),
      entry("applied"),
    ],
    server: {
      contract: true,
      receivedKeys: [KEY],
      occurrences: [{ threadId: "t", interruptId: "i1", state: "RESOLVED" }],
      executions: [{ threadId: "t", toolCallId: "call-1", name: "deploy", args: {} }],
    },
    cards: [{ tab: 0, interruptId: "i1", state: "applied", decisionText: "You approved." }],
    budgets: CLIENT_BUDGETS,
    requireFinal: true,
    ...overrides,
  };
}

const promises = (history: History) => checkHistory(history).map((v) => `${v.promise}@${v.step}`);
const withSteps = (steps: HistoryStep[], rest: Partial<History> = {}) => applied({ steps, ...rest });
const base = applied().steps;

test("an approval applied once, with its claim and its execution, keeps every promise", () => {
  expect(checkHistory(applied())).toEqual([]);
});

test("applied without the tool having run is caught at the step that said applied", () => {
  const history = applied({ server: { ...applied().server, executions: [] } });
  expect(promises(history)).toEqual(["applied-with-evidence@5"]);
  expect(formatViolations(history, checkHistory(history))[0]).toBe(
    "[applied-with-evidence] an approval shown as applied, but the tool ran 0 times — at step 5 (tab 0): entry key-aaaa (i1) → applied, attempts 1",
  );
});

test("applied while the contract server's occurrence is still open is caught", () => {
  const server = {
    ...applied().server,
    occurrences: [{ threadId: "t", interruptId: "i1", state: "PENDING" }],
  };
  expect(promises(applied({ server }))).toEqual(["applied-with-evidence@5"]);
});

test("a rejection applied is held to no execution and a REJECTED occurrence", () => {
  const steps = base.map((step) => (step.kind === "entry" ? { ...step, decision: "reject" } : step));
  const server = {
    ...applied().server,
    occurrences: [{ threadId: "t", interruptId: "i1", state: "REJECTED" }],
    executions: [],
  };
  expect(checkHistory(withSteps(steps, { server }))).toEqual([]);
  expect(
    promises(withSteps(steps, { server: { ...server, executions: applied().server.executions } })),
  ).toEqual(["applied-with-evidence@5", "claim-before-execution@6"]);
});

test("a tool that ran twice breaks at-most-once", () => {
  const execution = { threadId: "t", toolCallId: "call-1", name: "deploy", args: {} };
  const server = { ...applied().server, executions: [execution, execution] };
  expect(promises(applied({ server }))).toEqual(["applied-with-evidence@5", "at-most-once@6"]);
});

test("an execution whose approval never reached the server has no claim", () => {
  const steps = base.filter((step) => step.kind !== "request");
  expect(promises(withSteps(steps, { server: { ...applied().server, receivedKeys: [] } }))).toEqual([
    "claim-before-execution@5",
  ]);
  // The browser saw it answered although a crash restart made the server forget it: claimed.
  expect(checkHistory(applied({ server: { ...applied().server, receivedKeys: [] } }))).toEqual([]);
});

test("a batch follower is claimed by the key of the answer that sends for it", () => {
  const steps = base.map((step) =>
    step.kind === "entry" ? { ...step, key: "follower", sendsWith: KEY } : step,
  );
  expect(checkHistory(withSteps(steps))).toEqual([]);
});

test("lost is refused where the server recorded the outcome, accepted where it is indeterminate", () => {
  const steps = [...base.slice(0, 5), entry("lost")];
  const occurrence = (state: string) => [{ threadId: "t", interruptId: "i1", state }];
  const lost = (state: string, executions = applied().server.executions) =>
    withSteps(steps, {
      server: { ...applied().server, occurrences: occurrence(state), executions },
      cards: [{ tab: 0, interruptId: "i1", state: "lost", decisionText: "You approved." }],
    });
  expect(promises(lost("RESOLVED"))).toEqual(["lost-without-evidence@5"]);
  expect(promises(lost("PENDING", []))).toEqual(["lost-without-evidence@5"]);
  expect(checkHistory(lost("INDETERMINATE"))).toEqual([]);
});

test("lost is refused once a response the client had carried the call's result", () => {
  // Step 5, finished before step 6 (the verdict) unless told otherwise.
  const hydrate = (results: string[], finishedAt = 6): RequestStep => ({
    kind: "request",
    tab: 0,
    loop: "hydrate",
    answered: true,
    results,
    finishedAt,
  });
  const cards = [{ tab: 0, interruptId: "i1", state: "lost", decisionText: "You approved." }];
  // Without the contract the server's own record says nothing: what the client saw decides.
  const server = { ...applied().server, contract: false, occurrences: [] };
  const lost = (results: string[], finishedAt?: number) =>
    withSteps([...base.slice(0, 5), hydrate(results, finishedAt), entry("lost")], { server, cards });
  expect(promises(lost(["call-1"]))).toEqual(["lost-without-evidence@6"]);
  expect(checkHistory(lost(["call-2"]))).toEqual([]);
  expect(checkHistory(lost([]))).toEqual([]);
  // Asked before the verdict but answered after it: evidence the client did not have yet.
  expect(checkHistory(lost(["call-1"], 7))).toEqual([]);
});

test("a final verdict followed by another state is caught at the second one", () => {
  expect(promises(withSteps([...base, entry("retry_wait"), entry("applied")]))).toEqual(["one-verdict@6"]);
});

test("an answer left in flight breaks settles; a stall is an ending only when settling is not required", () => {
  const cards = (state: string) => [{ tab: 0, interruptId: "i1", state, decisionText: "You approved." }];
  const left = withSteps([...base.slice(0, 5), entry("retry_wait")], {
    server: { ...applied().server, executions: [], occurrences: [] },
    cards: cards("retry_wait"),
  });
  expect(promises(left)).toEqual(["settles@5"]);
  const stalled = { ...left, steps: [...base.slice(0, 5), entry("stalled")], cards: cards("stalled") };
  expect(promises(stalled)).toEqual(["settles@5"]);
  expect(checkHistory({ ...stalled, requireFinal: false })).toEqual([]);
});

test("an answer never kept, or kept twice, breaks settles", () => {
  expect(promises(applied({ asked: ["i1", "i2"] }))).toEqual(["settles@6"]);
  const twice = [...base, entry("applied", { key: "key-bbbbbbbb" })];
  expect(promises(withSteps(twice))).toContain("settles@7");
});

test("resumes of one key beyond its budget are caught at the first one over", () => {
  const budgets = { ...CLIENT_BUDGETS, resumesPerKey: 2 };
  const steps = [entry("queued"), resume(), resume(false), resume(), resume(), entry("applied")];
  expect(promises(withSteps(steps, { budgets }))).toEqual(["budget@4"]);
  // A stall resumed (online, retry now) starts a fresh budget.
  const resumed = [entry("queued"), resume(), resume(), entry("stalled"), entry("queued"), resume()];
  expect(checkHistory(withSteps([...resumed, entry("applied")], { budgets }))).toEqual([]);
});

test("reads beyond the budget per resume and per load are caught", () => {
  const budgets = { ...CLIENT_BUDGETS, readsPerResume: 1, readsPerLoad: 1 };
  const read: RequestStep = { kind: "request", tab: 0, loop: "hydrate", answered: true };
  const steps = [
    { kind: "load", tab: 0 } as const,
    read,
    entry("queued"),
    resume(),
    read,
    read,
    entry("applied"),
  ];
  expect(promises(withSteps(steps, { budgets }))).toEqual(["budget@5"]);
});

test("a tab that shows another state than the answer's, or hides the kept answer, is caught", () => {
  const cards = [
    { tab: 0, interruptId: "i1", state: "applied", decisionText: null },
    { tab: 1, interruptId: "i1", state: "sending", decisionText: "You approved." },
  ];
  expect(checkHistory(applied({ cards })).map((v) => v.message)).toEqual([
    "tab 0 does not show the kept answer",
    'tab 1 shows "sending" for a applied answer',
  ]);
});

test("another thread's writes are not this history's", () => {
  expect(checkHistory(withSteps([...base, entry("queued", { threadId: "other", key: "x" })]))).toEqual([]);
});

test("the excerpt ends at the violating step, the end named as such", () => {
  const history = applied({ server: { ...applied().server, executions: [] } });
  expect(historyExcerpt(history, 5, 2)).toEqual([
    "step 3 (tab 0): resume request key key-aaaa",
    "step 4 (tab 0): entry key-aaaa (i1) → streaming, attempts 1",
    "step 5 (tab 0): entry key-aaaa (i1) → applied, attempts 1",
  ]);
  expect(historyExcerpt(history, 6, 0)).toEqual(["end (after 6 steps)"]);
});
