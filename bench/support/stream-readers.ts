// The stream benchmark's baseline readers (the page's `thread.send` is the one
// measured against them). Each reads one whole run from `url` and returns how many
// events it saw and the milliseconds that took.
//   bare      — fetch + eventsource-parser + JSON.parse, nothing else: the floor. Given
//               the thread's messages, it posts them as `thread.send` must (the request
//               is built and serialised on the clock); without, an empty history.
//   reader    — readEventStream alone (spec-exact SSE parsing, cursors checked,
//               events validated), to split the gap between the two.
import { createParser } from "eventsource-parser";
import type { Message } from "../../packages/core/src/protocol/index.ts";
import { readEventStream } from "../../packages/core/src/stream/read-event-stream.ts";
import { RUN_ID, runInput, THREAD_ID } from "./recorded-run.ts";

export interface Read {
  readonly count: number;
  readonly ms: number;
}

function postRun(url: string, body = runInput()): Promise<Response> {
  return fetch(url, { method: "POST", headers: { accept: "text/event-stream" }, body });
}

export async function bare(url: string, messages?: readonly Message[]): Promise<Read> {
  const started = performance.now();
  const input = { threadId: THREAD_ID, runId: RUN_ID, state: {}, messages, tools: [], context: [] };
  const response = await postRun(url, messages ? JSON.stringify(input) : undefined);
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
