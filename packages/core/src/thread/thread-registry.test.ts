import { expect, test, vi } from "vitest";
import { type AgUiEvent, EventSchema, type Message } from "../protocol";
import { applyEvent } from "./thread-draft";
import { REPORT_INTERVAL_MS, ThreadRegistry } from "./thread-registry";
import { emptyThreadState, type ThreadState } from "./thread-state";

const events = (raw: readonly unknown[]): AgUiEvent[] => raw.map((event) => EventSchema.parse(event));

/** Earlier messages, then a turn that streams text, a tool call, its result, and a delta to an old message. */
function history(count: number): Message[] {
  return Array.from({ length: count }, (_, index) =>
    index % 2 === 0
      ? { id: `h${index}`, role: "user" as const, content: `question ${index}` }
      : { id: `h${index}`, role: "assistant" as const, content: `answer ${index}` },
  );
}

const turn = events([
  { type: "MESSAGES_SNAPSHOT", messages: history(9) },
  { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
  { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
  ...Array.from({ length: 12 }, (_, index) => ({
    type: "TEXT_MESSAGE_CONTENT",
    messageId: "m1",
    delta: `token ${index} `,
  })),
  { type: "TEXT_MESSAGE_END", messageId: "m1" },
  { type: "TOOL_CALL_START", toolCallId: "call-1", toolCallName: "deploy_change", parentMessageId: "m1" },
  { type: "TOOL_CALL_ARGS", toolCallId: "call-1", delta: '{"target":' },
  { type: "TOOL_CALL_ARGS", toolCallId: "call-1", delta: '"prod"}' },
  { type: "TOOL_CALL_END", toolCallId: "call-1" },
  { type: "TOOL_CALL_RESULT", messageId: "tool-1", toolCallId: "call-1", content: "deployed" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "h3", delta: " (edited)" },
  { type: "TEXT_MESSAGE_START", messageId: "m2", role: "assistant" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m2", delta: "Done." },
  { type: "TOOL_CALL_RESULT", messageId: "tool-1", toolCallId: "call-1", content: "deployed again" },
  { type: "RUN_FINISHED", threadId: "t1", runId: "r1", outcome: { type: "success" } },
]);

const oneByOne = (list: readonly AgUiEvent[], from: ThreadState = emptyThreadState("t1")) =>
  list.reduce(applyEvent, from);

test("a chunk of events wakes a thread's subscribers once, after the chunk", async () => {
  const threads = new ThreadRegistry();
  const store = threads.store("t1");
  const seen: ThreadState[] = [];
  store.subscribe((state) => seen.push(state));
  for (const event of turn) threads.apply("t1", event);
  expect(seen).toHaveLength(0);
  await Promise.resolve();
  expect(seen).toHaveLength(1);
  expect(seen[0]).toEqual(oneByOne(turn));
});

test("reading a thread publishes what was applied before it", () => {
  const threads = new ThreadRegistry();
  const seen: ThreadState[] = [];
  threads.store("t1").subscribe((state) => seen.push(state));
  threads.apply("t1", turn[0] as AgUiEvent);
  threads.apply("t1", turn[1] as AgUiEvent);
  expect(threads.store("t1").getState().run).toEqual({ name: "running", runId: "r1" });
  expect(seen).toHaveLength(1);
  expect(threads.get("t1")).toBe(seen[0]);
});

test("however a stream is split into chunks, the thread ends the same as folding event by event", async () => {
  const expected = oneByOne(turn);
  for (let size = 1; size <= turn.length; size += 1) {
    const threads = new ThreadRegistry();
    for (let start = 0; start < turn.length; start += size) {
      for (const event of turn.slice(start, start + size)) threads.apply("t1", event);
      await Promise.resolve();
    }
    expect(threads.get("t1")).toEqual(expected);
  }
  expect(expected.messages.map((message) => message.id)).toEqual([
    ...history(9).map((message) => message.id),
    "m1",
    "tool-1",
    "m2",
  ]);
  expect(expected.messages[3]).toMatchObject({ content: "answer 3 (edited)" });
  expect(expected.messages.find((message) => message.id === "tool-1")).toMatchObject({ content: "deployed" });
});

test("a published state is never written again by the chunks that follow", async () => {
  const threads = new ThreadRegistry();
  const split = turn.findIndex((event) => event.type === "TOOL_CALL_ARGS") + 1;
  for (const event of turn.slice(0, split)) threads.apply("t1", event);
  const published = threads.get("t1");
  const frozen = structuredClone(published);
  for (const event of turn.slice(split)) threads.apply("t1", event);
  await Promise.resolve();
  expect(published).toEqual(frozen);
  expect(threads.get("t1")).toEqual(oneByOne(turn));
});

test("a subscriber that applies an event while being told starts a new chunk from what it was given", async () => {
  const threads = new ThreadRegistry();
  let reacted = false;
  threads.store("t1").subscribe((state) => {
    if (reacted || state.run.name !== "finished") return;
    reacted = true;
    threads.apply("t1", { type: "TEXT_MESSAGE_CONTENT", messageId: "m2", delta: " Checked." } as AgUiEvent);
  });
  for (const event of turn) threads.apply("t1", event);
  await Promise.resolve();
  await Promise.resolve();
  expect(threads.get("t1").messages.find((message) => message.id === "m2")).toMatchObject({
    content: "Done. Checked.",
  });
});

test("an update and a cleared registry see every event applied before them", () => {
  const threads = new ThreadRegistry();
  for (const event of turn) threads.apply("t1", event);
  threads.update("t1", (state) => ({ ...state, loaded: false }));
  expect(threads.get("t1")).toEqual({ ...oneByOne(turn), loaded: false });
  threads.apply("t1", turn[2] as AgUiEvent);
  threads.clear();
  expect(threads.get("t1")).toEqual(emptyThreadState("t1"));
});

test("this tab's events are reported in one batch per interval, and a run's end at once", async () => {
  vi.useFakeTimers();
  try {
    const reports: AgUiEvent[][] = [];
    const threads = new ThreadRegistry((_threadId, applied) => reports.push([...applied]));
    const body = turn.slice(1, -1);
    // One network chunk per task, as a stream delivers them.
    for (const event of body) {
      threads.apply("t1", event);
      await Promise.resolve();
    }
    expect(reports).toEqual([]);
    vi.advanceTimersByTime(REPORT_INTERVAL_MS);
    expect(reports).toEqual([body]);
    threads.apply("t1", turn.at(-1) as AgUiEvent);
    await Promise.resolve();
    expect(reports).toEqual([body, [turn.at(-1)]]);
    expect(vi.getTimerCount()).toBe(0);
  } finally {
    vi.useRealTimers();
  }
});

test("a new message in a long thread is placed without reading every message again", () => {
  const threads = new ThreadRegistry();
  let idReads = 0;
  // Each message counts the reads of its id: a scan of the thread reads them all.
  const counted = history(2_000).map((message) => {
    const { id, ...rest } = message;
    return Object.defineProperty(rest, "id", {
      enumerable: true,
      get: () => {
        idReads += 1;
        return id;
      },
    }) as Message;
  });
  threads.apply("t1", { type: "MESSAGES_SNAPSHOT", messages: counted } as AgUiEvent);
  threads.get("t1");
  idReads = 0;
  // One chunk per turn, as a stream delivers them: each starts a message and adds a tool result.
  for (let turn = 0; turn < 50; turn += 1) {
    for (const event of events([
      { type: "TEXT_MESSAGE_START", messageId: `m${turn}`, role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: `m${turn}`, delta: "token" },
      { type: "TOOL_CALL_RESULT", messageId: `r${turn}`, toolCallId: `c${turn}`, content: "ok" },
    ]))
      threads.apply("t1", event);
    threads.get("t1");
  }
  expect(threads.get("t1").messages).toHaveLength(2_100);
  // Once to index the thread, not once per new message (200,000 reads).
  expect(idReads).toBeLessThanOrEqual(2_000);
});
