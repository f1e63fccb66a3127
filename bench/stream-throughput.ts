// Benchmark 2: events per second through `thread.send`, in Chromium, for threads
// that hold 1, 200 and 1,000 messages before the run. The same recorded run
// (bench/support/recorded-run.ts: steps, streamed text, tool calls with streamed
// arguments, tool results, state deltas, custom events) is served by one local
// node:http server in network-sized writes. Readers:
//   ours       — `client.thread(id).send(text)` on a started client, the whole real
//                path: the request with the thread's history, SSE parsing, cursors,
//                validation, the thread's store, and the tab machinery, with the tab
//                alone in its namespace;
//   oursShared — the same with a second tab (another page of the same browser) open
//                in the namespace, mirroring every event it is sent;
//   bare       — fetch + eventsource-parser + JSON.parse: the floor, posting the request
//                `thread.send` posts (the history and the message, serialised on the
//                clock): an AG-UI run request carries the thread's messages;
//   bareEmpty  — the same posting an empty history (the baseline before), printed beside;
//   reader     — readEventStream alone (empty history), to split the gap against bareEmpty.
// The thread's history is hydrated from the server before the clock starts.
// Each of BENCH_RUNS rounds reads every size with every reader BENCH_STREAM_REPS times,
// the readers' order rotating from round to round; a round's rate is from its fastest
// read (the machine is shared: the fastest read is the one least disturbed by other
// work, for every reader alike). Figures are the median (range) over rounds.
// Target: ours and oursShared ≥ 0.85× bare with 1 and 200 messages, ≥ 0.6× with 1,000.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { StreamPageRequest } from "./pages/stream-page.ts";
import { openBenchPage } from "./support/browser-page.ts";
import { benchPort, PortOffset } from "./support/ports.ts";
import { history, recordedRun } from "./support/recorded-run.ts";
import { envInt, figure, heading, RUNS, rotate, spread, target, times } from "./support/report.ts";
import type { Read } from "./support/stream-readers.ts";

const EVENTS = envInt("BENCH_STREAM_EVENTS", 3_000);
const CHUNK = envInt("BENCH_STREAM_CHUNK", 1_400);
const REPS = envInt("BENCH_STREAM_REPS", 5);
const SIZES = [1, 200, 1_000] as const;
type ReaderName = StreamPageRequest["reader"];
const READERS: readonly ReaderName[] = ["ours", "oursShared", "bare", "bareEmpty", "reader"];

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "content-type, accept, last-event-id, idempotency-key",
  "access-control-allow-methods": "GET, POST",
};

/** A hydration (`messages: []` on a `hist-<size>-<n>` thread): the history as one snapshot. */
function hydration(body: string): Buffer | undefined {
  const input = JSON.parse(body) as { threadId?: string; runId?: string; messages?: unknown[] };
  const size = /^hist-(\d+)-/.exec(input.threadId ?? "")?.[1];
  if (size === undefined || input.messages?.length !== 0) return undefined;
  const run = { threadId: input.threadId, runId: input.runId };
  const frames = [
    { type: "RUN_STARTED", ...run },
    { type: "MESSAGES_SNAPSHOT", messages: history(Number(size)) },
    { type: "RUN_FINISHED", ...run, outcome: { type: "success" } },
  ];
  return Buffer.from(frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join(""));
}

/** Serves the recording to any run request, `CHUNK` bytes per write; CORS for the page. */
async function serve(recording: Buffer): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.once("end", () => respond(req, res, Buffer.concat(parts).toString("utf8")));
  });
  const respond = (req: IncomingMessage, res: ServerResponse, body: string) => {
    if (req.method !== "POST") {
      // The preflight, and the capabilities GET: a 404 there is a server without the contract.
      res.writeHead(req.method === "OPTIONS" ? 204 : 404, CORS);
      res.end();
      return;
    }
    const bytes = hydration(body) ?? recording;
    res.writeHead(200, {
      ...CORS,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
    });
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
  };
  // Longer than any pause between reads, so a kept-alive connection is never
  // closed by the server just as the next request reuses it.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(benchPort(PortOffset.stream), "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/agent`, server };
}

type ReadOne = (name: ReaderName, messages: number) => Promise<Read>;

/** rates[reader][size] = events/s per round. */
async function measure(readOne: ReadOne) {
  const rates = new Map<string, number[]>();
  const key = (name: ReaderName, size: number) => `${name}/${size}`;
  // One warm-up each so JIT compilation is not measured.
  for (const size of SIZES) for (const name of READERS) await readOne(name, size);
  for (let round = 0; round < RUNS; round += 1) {
    for (const size of SIZES) {
      for (const name of rotate(READERS, round)) {
        let fastest = Number.POSITIVE_INFINITY;
        for (let rep = 0; rep < REPS; rep += 1) {
          const read = await readOne(name, size);
          if (read.count !== EVENTS) throw new Error(`${name} read ${read.count} of ${EVENTS} events`);
          fastest = Math.min(fastest, read.ms);
        }
        const list = rates.get(key(name, size)) ?? [];
        list.push(EVENTS / (fastest / 1000));
        rates.set(key(name, size), list);
      }
    }
  }
  return (name: ReaderName, size: number) => rates.get(key(name, size)) ?? [];
}

const events = (value: number) => `${Math.round(value / 1000).toLocaleString("en")}k ev/s`;

function report(title: string, rate: (name: ReaderName, size: number) => number[]): void {
  heading(
    title,
    `${EVENTS.toLocaleString("en")} events per run, ${CHUNK}-byte writes, ${RUNS} rounds, fastest of ${REPS} reads each; median (range)`,
  );
  for (const size of SIZES) {
    const messages = `${size.toLocaleString("en")} message${size === 1 ? "" : "s"}`;
    figure(`thread of ${messages}`, "");
    for (const name of READERS) figure(`  ${name}`, spread(rate(name, size), events));
    const ratioPerRound = (top: ReaderName, bottom: ReaderName) =>
      rate(top, size).map((value, index) => value / (rate(bottom, size)[index] ?? Number.NaN));
    const goal = size === 1_000 ? 0.6 : 0.85;
    for (const [name, label] of [
      ["ours", "alone"],
      ["oursShared", "2 tabs"],
    ] as const) {
      const ratios = ratioPerRound(name, "bare");
      const sorted = [...ratios].sort((a, b) => a - b);
      const mid = sorted[Math.ceil(sorted.length / 2) - 1] ?? 0;
      // The size is in the name so the line stands alone in the run's Markdown table.
      target(`  send/bare, ${label}, ${messages}`, spread(ratios, times), `≥ ${goal}×`, mid >= goal);
      figure(`  send/bareEmpty, ${label}`, spread(ratioPerRound(name, "bareEmpty"), times));
    }
    // What the second tab costs, read side by side in each round.
    figure("  2 tabs / alone", spread(ratioPerRound("oursShared", "ours"), times));
    figure("  reader / bareEmpty", spread(ratioPerRound("reader", "bareEmpty"), times));
  }
}

const recording = Buffer.from(recordedRun(EVENTS));
const { url, server } = await serve(recording);
try {
  const started = performance.now();
  const bench = await openBenchPage("stream-page.ts");
  // The second tab: another page of the same browser, in the shared namespace.
  const second = await bench.context.newPage();
  try {
    await second.goto(bench.url);
    await second.waitForFunction(() => (globalThis as { benchReady?: boolean }).benchReady === true);
    await second.evaluate(
      (agentUrl) =>
        (globalThis as unknown as { benchJoin: (url: string) => Promise<void> }).benchJoin(agentUrl),
      url,
    );
    const rate = await measure((reader, messages) =>
      bench.page.evaluate(
        (request) =>
          (globalThis as unknown as { benchStream: (r: StreamPageRequest) => Promise<Read> }).benchStream(
            request,
          ),
        { url, messages, reader, events: EVENTS } satisfies StreamPageRequest,
      ),
    );
    report(`2. Stream consumption through thread.send (Chromium ${bench.version})`, rate);
    console.log(`   wall time ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await second.close();
    await bench.close();
  }
  console.log(
    `   recording: ${(recording.length / 1024).toFixed(0)} KiB, history is loaded before the clock starts`,
  );
} finally {
  server.closeAllConnections();
  server.close();
}
