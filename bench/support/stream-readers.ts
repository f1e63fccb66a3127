// The stream benchmark's readers, shared by its Node and Chromium sides (no Node
// imports). Each reads one whole run from `url` and returns how many events it saw
// and the milliseconds that took; setting up a thread's history is not timed.
//   ours      — fetch + pumpRunStream (readEventStream: spec-exact SSE parsing with
//               eventsource-parser, the `id:` cursor kept and cross-checked, every
//               event validated; the event log de-duplicating by cursor) dispatching
//               each event into the thread's zustand store through
//               ThreadRegistry.apply: the path a `thread.send` takes.
//   bare      — fetch + eventsource-parser + JSON.parse, nothing else: the floor.
//   reader    — ours without the dispatch (readEventStream alone).
import { createParser } from "eventsource-parser";
import { pumpRunStream } from "../../packages/core/src/delivery/pump-run-stream.ts";
import { EventType, type Message } from "../../packages/core/src/protocol/index.ts";
import { createEventLog } from "../../packages/core/src/stream/event-log.ts";
import {
  DEFAULT_MAX_EVENT_BYTES,
  readEventStream,
} from "../../packages/core/src/stream/read-event-stream.ts";
import { defaultTimers } from "../../packages/core/src/stream/timers.ts";
import { ThreadRegistry } from "../../packages/core/src/thread/thread-registry.ts";
import { runInput, THREAD_ID } from "./recorded-run.ts";

export interface Read {
  readonly count: number;
  readonly ms: number;
}

function postRun(url: string): Promise<Response> {
  return fetch(url, { method: "POST", headers: { accept: "text/event-stream" }, body: runInput() });
}

export async function ours(url: string, earlier: readonly Message[]): Promise<Read> {
  const threads = new ThreadRegistry();
  // The thread as an app shows it before the run: its history already loaded.
  threads.apply(THREAD_ID, { type: EventType.MESSAGES_SNAPSHOT, messages: [...earlier] });
  const before = threads.get(THREAD_ID).messages.length;
  const started = performance.now();
  const response = await postRun(url);
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
  const ms = performance.now() - started;
  if (signal.type !== "run-finished") throw new Error(`ours ended with ${signal.type}`);
  const state = threads.get(THREAD_ID);
  if (state.run.name !== "finished" || state.messages.length <= before) {
    throw new Error("ours did not fold the run");
  }
  return { count, ms };
}

export async function bare(url: string): Promise<Read> {
  const started = performance.now();
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
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  return { count, ms: performance.now() - started };
}

export async function readerOnly(url: string): Promise<Read> {
  const started = performance.now();
  const response = await postRun(url);
  let count = 0;
  for await (const _ of readEventStream(response)) count += 1;
  return { count, ms: performance.now() - started };
}
