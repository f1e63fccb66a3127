// The stream benchmark's baseline readers (the page's `thread.send` is the one
// measured against them). Each reads one whole run from `url` and returns how many
// events it saw and the milliseconds that took.
//   bare      — fetch + eventsource-parser + JSON.parse, nothing else: the floor.
//   reader    — readEventStream alone (spec-exact SSE parsing, cursors checked,
//               events validated), to split the gap between the two.
import { createParser } from "eventsource-parser";
import { readEventStream } from "../../packages/core/src/stream/read-event-stream.ts";
import { runInput } from "./recorded-run.ts";

export interface Read {
  readonly count: number;
  readonly ms: number;
}

function postRun(url: string): Promise<Response> {
  return fetch(url, { method: "POST", headers: { accept: "text/event-stream" }, body: runInput() });
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
