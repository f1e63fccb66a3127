// How much does reading an AG-UI stream correctly cost? Side by side on the same
// bytes, split into the same network-sized chunks:
//   baseline — the common shortcut: buffer, split on "\n\n", JSON.parse each `data:`
//              line (drops `id:`, no validation, breaks on CRLF);
//   ours     — readEventStream: spec-exact SSE parsing (eventsource-parser), the
//              `id:` cursor kept and cross-checked, every event validated by zod.
// Run: npm run bench   (prints events/s for both and the ratio; nothing is asserted)
import { readEventStream } from "../packages/core/src/stream/read-event-stream.ts";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const CHUNK = Number(process.env.BENCH_CHUNK ?? 1_400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function frames(runId: string): string {
  const parts: string[] = [];
  const push = (seq: number, event: Record<string, unknown>) =>
    parts.push(
      `id: ${runId}:${seq}\ndata: ${JSON.stringify({ ...event, metadata: { "x-stream": { runId, seq } } })}\n\n`,
    );
  push(1, { type: "RUN_STARTED", threadId: "t", runId });
  for (let seq = 2; seq < EVENTS; seq += 1) {
    push(seq, { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: `token ${seq} of a streamed answer ` });
  }
  push(EVENTS, { type: "RUN_FINISHED", threadId: "t", runId, outcome: { type: "success" } });
  return parts.join("");
}

function chunked(bytes: Uint8Array): Response {
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + CHUNK));
      offset += CHUNK;
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

async function baseline(response: Response): Promise<number> {
  const reader = response.body?.getReader();
  if (!reader) throw new Error("no body");
  const decoder = new TextDecoder();
  let buffer = "";
  let count = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const blocks = buffer.split("\n\n");
    buffer = blocks.pop() ?? "";
    for (const block of blocks) {
      const data = block.split("\n").find((line) => line.startsWith("data: "));
      if (data) {
        JSON.parse(data.slice(6));
        count += 1;
      }
    }
  }
  return count;
}

async function ours(response: Response): Promise<number> {
  let count = 0;
  for await (const _ of readEventStream(response, { stallTimeoutMs: Number.POSITIVE_INFINITY })) count += 1;
  return count;
}

async function measure(name: string, read: (response: Response) => Promise<number>, bytes: Uint8Array) {
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    const count = await read(chunked(bytes));
    const seconds = (performance.now() - started) / 1000;
    if (count !== EVENTS) throw new Error(`${name} read ${count} of ${EVENTS} events`);
    rates.push(count / seconds);
  }
  rates.sort((a, b) => a - b);
  return { name, median: rates[Math.floor(rates.length / 2)] ?? 0 };
}

const bytes = new TextEncoder().encode(frames("run-bench"));
// One warm-up each so JIT compilation is not measured.
await baseline(chunked(bytes));
await ours(chunked(bytes));
const base = await measure("baseline (split + JSON.parse)", baseline, bytes);
const mine = await measure("readEventStream (parse + validate)", ours, bytes);

const mb = bytes.length / 1024 / 1024;
console.log(
  `stream of ${EVENTS} events, ${mb.toFixed(1)} MiB, ${CHUNK}-byte chunks, median of ${ROUNDS} rounds`,
);
for (const { name, median } of [base, mine]) {
  console.log(`  ${name.padEnd(38)} ${Math.round(median).toLocaleString("en").padStart(10)} events/s`);
}
console.log(`  ratio ours / baseline: ${(mine.median / base.median).toFixed(2)}`);
