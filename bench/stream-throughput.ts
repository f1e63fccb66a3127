// Benchmark 2: events per second through a stream layer, in Chromium and in Node,
// for threads that hold 1, 200 and 1,000 messages before the run. The same recorded
// run (bench/support/recorded-run.ts: steps, streamed text, tool calls with streamed
// arguments, tool results, state deltas, custom events) is served by one local
// node:http server in network-sized writes. Readers (bench/support/stream-readers.ts):
//   ours       — pumpRunStream dispatching into ThreadRegistry: what `thread.send` runs;
//   bare       — fetch + eventsource-parser + JSON.parse: the floor;
//   reader     — ours without the dispatch (readEventStream alone), to split the gap;
//   HttpAgent  — (Node only, 1-message thread only) `@ag-ui/client` 1.0.0 `runAgent()`,
//                counted by a subscriber. It copies its message list on every event,
//                so with a long history one run takes seconds (4–6 s at 1,000
//                messages here): it is measured where it finishes in reasonable time.
// Each of BENCH_RUNS rounds reads every size with every reader BENCH_STREAM_REPS times
// (HttpAgent BENCH_STREAM_HTTPAGENT_REPS times, default once: a read takes it seconds),
// the readers' order rotating from round to round; a round's rate is from its fastest
// read (the machine is shared: the fastest read is the one least disturbed by other
// work, for every reader alike). Figures are the median (range) over rounds.
// Target (Chromium): ours ≥ 0.85× bare with 1 and 200 messages, ≥ 0.6× with 1,000.
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { HttpAgent } from "@ag-ui/client";

type HttpAgentMessages = NonNullable<ConstructorParameters<typeof HttpAgent>[0]["initialMessages"]>;

import type { StreamPageRequest } from "./pages/stream-page.ts";
import { openBenchPage } from "./support/browser-page.ts";
import { benchPort, PortOffset } from "./support/ports.ts";
import { history, RUN_ID, recordedRun, THREAD_ID } from "./support/recorded-run.ts";
import { envInt, figure, heading, RUNS, rotate, spread, target, times } from "./support/report.ts";
import { bare, ours, type Read, readerOnly } from "./support/stream-readers.ts";

const EVENTS = envInt("BENCH_STREAM_EVENTS", 3_000);
const CHUNK = envInt("BENCH_STREAM_CHUNK", 1_400);
const REPS = envInt("BENCH_STREAM_REPS", 5);
// HttpAgent takes 70–110× ours' time per read (seconds each): one read per round is
// enough for a reference figure with no target, and keeps the benchmark short.
const HTTP_AGENT_REPS = envInt("BENCH_STREAM_HTTPAGENT_REPS", 1);
const SIZES = [1, 200, 1_000] as const;

/** Serves the recording to any request, `CHUNK` bytes per write; CORS for the page. */
async function serve(bytes: Buffer): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    // Read the whole request first: HttpAgent's carries the thread's history.
    req.resume();
    req.once("end", () => respond(res));
  });
  const respond = (res: ServerResponse) => {
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "access-control-allow-origin": "*",
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

async function httpAgent(url: string, messages: number): Promise<Read> {
  const agent = new HttpAgent({
    url,
    threadId: THREAD_ID,
    initialMessages: history(messages) as HttpAgentMessages,
  });
  // Its initial messages go out in its request body, which ours does not send.
  let count = 0;
  const started = performance.now();
  await agent.runAgent(
    { runId: RUN_ID },
    {
      onEvent: () => {
        count += 1;
      },
    },
  );
  return { count, ms: performance.now() - started };
}

type ReaderName = "ours" | "bare" | "reader" | "httpAgent";
type ReadOne = (name: ReaderName, messages: number) => Promise<Read>;

/** rates[reader][size] = events/s per round. */
async function measure(readers: readonly ReaderName[], readOne: ReadOne) {
  const rates = new Map<string, number[]>();
  const key = (name: ReaderName, size: number) => `${name}/${size}`;
  // One warm-up each so JIT compilation is not measured.
  for (const size of SIZES)
    for (const name of readers) if (name !== "httpAgent" || size === SIZES[0]) await readOne(name, size);
  for (let round = 0; round < RUNS; round += 1) {
    for (const size of SIZES) {
      for (const name of rotate(readers, round)) {
        if (name === "httpAgent" && size !== SIZES[0]) continue;
        let fastest = Number.POSITIVE_INFINITY;
        for (let rep = 0; rep < (name === "httpAgent" ? HTTP_AGENT_REPS : REPS); rep += 1) {
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

function report(
  title: string,
  readers: readonly ReaderName[],
  rate: (name: ReaderName, size: number) => number[],
  targets: boolean,
): void {
  heading(
    title,
    `${EVENTS.toLocaleString("en")} events per run, ${CHUNK}-byte writes, ${RUNS} rounds, fastest of ${REPS} reads each (HttpAgent: of ${HTTP_AGENT_REPS}); median (range)`,
  );
  for (const size of SIZES) {
    figure(`thread of ${size.toLocaleString("en")} message${size === 1 ? "" : "s"}`, "");
    for (const name of readers) {
      if (rate(name, size).length > 0) figure(`  ${name}`, spread(rate(name, size), events));
    }
    const ratioPerRound = (top: ReaderName, bottom: ReaderName) =>
      rate(top, size).map((value, index) => value / (rate(bottom, size)[index] ?? Number.NaN));
    const ratios = ratioPerRound("ours", "bare");
    const goal = size === 1_000 ? 0.6 : 0.85;
    const sorted = [...ratios].sort((a, b) => a - b);
    const mid = sorted[Math.ceil(sorted.length / 2) - 1] ?? 0;
    // The size is in the name so the line stands alone in the run's Markdown table.
    const label = `  ours / bare, ${size.toLocaleString("en")} message${size === 1 ? "" : "s"}`;
    if (targets) target(label, spread(ratios, times), `≥ ${goal}×`, mid >= goal);
    else figure("  ours / bare (no target in Node)", spread(ratios, times));
    figure("  reader / bare", spread(ratioPerRound("reader", "bare"), times));
    if (readers.includes("httpAgent") && size === SIZES[0])
      figure("  ours / HttpAgent (no target)", spread(ratioPerRound("ours", "httpAgent"), times));
  }
}

const body = Buffer.from(recordedRun(EVENTS));
const { url, server } = await serve(body);
try {
  const nodeReaders: readonly ReaderName[] = ["ours", "bare", "reader", "httpAgent"];
  const nodeStarted = performance.now();
  const nodeRate = await measure(nodeReaders, (name, messages) => {
    if (name === "bare") return bare(url);
    if (name === "reader") return readerOnly(url);
    if (name === "httpAgent") return httpAgent(url, messages);
    return ours(url, history(messages));
  });

  const nodeSeconds = (performance.now() - nodeStarted) / 1000;
  const pageStarted = performance.now();
  const bench = await openBenchPage("stream-page.ts");
  try {
    const pageReaders: readonly ReaderName[] = ["ours", "bare", "reader"];
    const pageRate = await measure(pageReaders, (name, messages) =>
      bench.page.evaluate(
        (request) =>
          (globalThis as unknown as { benchStream: (r: StreamPageRequest) => Promise<Read> }).benchStream(
            request,
          ),
        { url, messages, reader: name as StreamPageRequest["reader"] },
      ),
    );
    const pageSeconds = (performance.now() - pageStarted) / 1000;
    report(`2. Stream consumption (Chromium ${bench.version})`, pageReaders, pageRate, true);
    console.log(
      `   wall time: Node readers ${nodeSeconds.toFixed(1)} s, Chromium readers ${pageSeconds.toFixed(1)} s`,
    );
  } finally {
    await bench.close();
  }
  report(`2. Stream consumption (Node ${process.version})`, nodeReaders, nodeRate, false);
  console.log(
    `   recording: ${(body.length / 1024).toFixed(0)} KiB, history is loaded before the clock starts`,
  );
} finally {
  server.closeAllConnections();
  server.close();
}
