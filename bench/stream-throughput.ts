// Benchmark 2: events per second through a stream layer, on the same recorded run
// served by the same local node:http server, in network-sized chunks.
//   ours       — fetch + pumpRunStream (readEventStream: spec-exact SSE parsing with
//                eventsource-parser, the `id:` cursor kept and cross-checked, every event
//                validated by zod; the event log de-duplicating by cursor) dispatching each
//                event into the thread's zustand store through ThreadRegistry.apply: the
//                path a `thread.send` takes.
//   HttpAgent  — `@ag-ui/client` 1.0.0 `runAgent()`: its SSE parsing, zod validation,
//                event verification and message fold, counted by a subscriber.
//   bare       — fetch + eventsource-parser + JSON.parse, nothing else: the floor.
// Two more rows say where the time goes: our reader without the dispatch, and
// HttpAgent's `run()` observable (its parse + validate, without verification or fold).
// Target: ours ≥ 1.0× HttpAgent and ≥ 0.7× bare. Rates are the median of rounds that
// alternate between the readers, so drift on a shared machine hits each alike.
// HttpAgent's fold copies the message list on every event (quadratic in a long
// message), so the default stream is 5,000 events: at 20,000 one HttpAgent run takes
// about 17 s here.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { HttpAgent } from "@ag-ui/client";
import type { RunAgentInput } from "@ag-ui/core";
import { createParser } from "eventsource-parser";
import { pumpRunStream } from "../packages/core/src/delivery/pump-run-stream.ts";
import { createEventLog } from "../packages/core/src/stream/event-log.ts";
import { DEFAULT_MAX_EVENT_BYTES, readEventStream } from "../packages/core/src/stream/read-event-stream.ts";
import { defaultTimers } from "../packages/core/src/stream/timers.ts";
import { ThreadRegistry } from "../packages/core/src/thread/thread-registry.ts";
import { envInt, figure, heading, median, perSecond, target } from "./support/report.ts";

const EVENTS = envInt("BENCH_STREAM_EVENTS", 5_000);
const CHUNK = envInt("BENCH_STREAM_CHUNK", 1_400);
const ROUNDS = envInt("BENCH_STREAM_ROUNDS", 7);
const THREAD_ID = "thread-bench";
const RUN_ID = "run-bench";

/**
 * A run as the mock server writes it (`id: <runId>:<seq>`, the `x-stream` cursor in
 * metadata, LF endings): a streamed assistant message, a tool call, the run's end.
 */
function recordedRun(): string {
  const frames: string[] = [];
  let seq = 0;
  const push = (event: Record<string, unknown>) => {
    seq += 1;
    const data = { ...event, metadata: { "x-stream": { runId: RUN_ID, seq } } };
    frames.push(`id: ${RUN_ID}:${seq}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  push({ type: "RUN_STARTED", threadId: THREAD_ID, runId: RUN_ID });
  push({ type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" });
  const contentEvents = EVENTS - 7;
  for (let index = 0; index < contentEvents; index += 1) {
    push({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: `token ${index} of a streamed answer ` });
  }
  push({ type: "TEXT_MESSAGE_END", messageId: "m1" });
  push({
    type: "TOOL_CALL_START",
    toolCallId: "call-1",
    toolCallName: "deploy_change",
    parentMessageId: "m1",
  });
  push({ type: "TOOL_CALL_ARGS", toolCallId: "call-1", delta: '{"target":"prod"}' });
  push({ type: "TOOL_CALL_END", toolCallId: "call-1" });
  push({ type: "RUN_FINISHED", threadId: THREAD_ID, runId: RUN_ID, outcome: { type: "success" } });
  return frames.join("");
}

/** Serves the recording to any request, `CHUNK` bytes per write. */
async function serve(bytes: Buffer): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
    let offset = 0;
    const pump = () => {
      while (offset < bytes.length) {
        const chunk = bytes.subarray(offset, offset + CHUNK);
        offset += CHUNK;
        if (!res.write(chunk)) {
          res.once("drain", pump);
          return;
        }
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/agent`, server };
}

function runInput(): string {
  return JSON.stringify({
    threadId: THREAD_ID,
    runId: RUN_ID,
    state: {},
    messages: [],
    tools: [],
    context: [],
  });
}

/** The run request every reader but HttpAgent sends (HttpAgent sends its own). */
function postRun(url: string): Promise<Response> {
  return fetch(url, { method: "POST", headers: { accept: "text/event-stream" }, body: runInput() });
}

async function ours(url: string): Promise<number> {
  const response = await postRun(url);
  const threads = new ThreadRegistry();
  let count = 0;
  const signal = await pumpRunStream(response, {
    log: createEventLog(),
    timers: defaultTimers,
    stallTimeoutMs: 45_000,
    maxEventBytes: DEFAULT_MAX_EVENT_BYTES,
    onEvent: (event) => {
      threads.apply(THREAD_ID, event);
      count += 1;
    },
  });
  if (signal.type !== "run-finished") throw new Error(`ours ended with ${signal.type}`);
  if (threads.get(THREAD_ID).run.name !== "finished") throw new Error("ours did not fold the run");
  return count;
}

async function httpAgent(url: string): Promise<number> {
  const agent = new HttpAgent({ url, threadId: THREAD_ID });
  let count = 0;
  await agent.runAgent(
    { runId: RUN_ID },
    {
      onEvent: () => {
        count += 1;
      },
    },
  );
  if (agent.messages.length === 0) throw new Error("HttpAgent folded no message");
  return count;
}

async function oursWithoutDispatch(url: string): Promise<number> {
  const response = await postRun(url);
  let count = 0;
  for await (const _ of readEventStream(response)) count += 1;
  return count;
}

async function httpAgentRun(url: string): Promise<number> {
  const agent = new HttpAgent({ url, threadId: THREAD_ID });
  const input: RunAgentInput = {
    threadId: THREAD_ID,
    runId: RUN_ID,
    state: {},
    messages: [],
    tools: [],
    context: [],
    forwardedProps: {},
  };
  let count = 0;
  await new Promise<void>((resolve, reject) => {
    agent.run(input).subscribe({
      next: () => {
        count += 1;
      },
      error: reject,
      complete: resolve,
    });
  });
  return count;
}

async function bare(url: string): Promise<number> {
  const response = await postRun(url);
  if (!response.body) throw new Error("no body");
  let count = 0;
  const parser = createParser({
    onEvent: (message) => {
      JSON.parse(message.data);
      count += 1;
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of response.body) parser.feed(decoder.decode(chunk, { stream: true }));
  return count;
}

const readers = [
  { name: "ours (parse + validate + dispatch)", read: ours },
  { name: "@ag-ui/client HttpAgent.runAgent", read: httpAgent },
  { name: "bare eventsource-parser + JSON.parse", read: bare },
  { name: "  ours without dispatch (readEventStream)", read: oursWithoutDispatch },
  { name: "  HttpAgent.run (parse + validate, no fold)", read: httpAgentRun },
] as const;

const body = Buffer.from(recordedRun());
const { url, server } = await serve(body);
try {
  // One warm-up each so JIT compilation is not measured.
  for (const reader of readers) await reader.read(url);
  const rates = readers.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [index, reader] of readers.entries()) {
      const started = performance.now();
      const count = await reader.read(url);
      const seconds = (performance.now() - started) / 1000;
      if (count !== EVENTS) throw new Error(`${reader.name} read ${count} of ${EVENTS} events`);
      rates[index]?.push(count / seconds);
    }
  }
  const [mine = 0, agent = 0, floor = 0, reader = 0, agentRun = 0] = rates.map((samples) => median(samples));
  heading(
    "2. Stream consumption (Node)",
    `${EVENTS.toLocaleString("en")} events, ${(body.length / 1024 / 1024).toFixed(1)} MiB over local HTTP in ${CHUNK}-byte writes, median of ${ROUNDS} rounds`,
  );
  for (const [index, reader] of readers.entries()) figure(reader.name, perSecond(median(rates[index] ?? [])));
  target("ours / HttpAgent", `${(mine / agent).toFixed(2)}×`, "≥ 1.0×", mine / agent >= 1);
  target("ours / bare parser", `${(mine / floor).toFixed(2)}×`, "≥ 0.7×", mine / floor >= 0.7);
  figure("(no target) readEventStream / HttpAgent.run", `${(reader / agentRun).toFixed(2)}×`);
} finally {
  server.close();
}
