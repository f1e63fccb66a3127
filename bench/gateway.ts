// The recovery gateway beside the bare upstream, in one run:
//   1. added latency to a resume's first byte: POST → the first byte of the response body,
//      through the gateway minus straight to the upstream (p50, p95), on a memory store and
//      on Postgres (fsync on);
//   2. events/s of one long run through the gateway against the upstream's own
//      (median of alternating samples; goal ≥ 0.9×), memory and Postgres;
//   3. resumes/s through gateways on Postgres with fsync on: one replica, and three on one
//      database (each with its own store and the shared thread lock), beside the bare upstream.
// The synthetic upstream is Node, in this process: the mock server's Agent Framework 1.7
// emulation (af-lifecycle, a 5 ms tool) for resumes, a scripted SSE server for throughput —
// the gateway's own cost, stacked on the upstream's on one thread. Events/s are measured
// again against the real pydantic-ai peer (e2e/peers/pydantic-ai), a Python process of its
// own as users run one, its scripted model answering "stream N" with N text deltas: the
// 0.9× goal is judged there (docs/decisions.md). Without the peer's venv that part skips.
//
//   npx tsx --conditions=@agui-outbox/source bench/gateway.ts
//   BENCH_GATEWAY_RESUMES=100 BENCH_GATEWAY_EVENTS=5000 BENCH_GATEWAY_SAMPLES=5 BENCH_CONCURRENCY=8 …
//   BENCH_GATEWAY_PARTS=postgres,peer …   only these parts: memory, postgres (stores); resumes,
//                                          synthetic, peer (rows); replicas. Unset: all of them.
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createGateway, type Gateway, type ThreadLock } from "../packages/gateway/src/index";
import { PostgresThreadLock } from "../packages/gateway/src/postgres";
import { startFakeUpstream } from "../packages/gateway/test/support/fake-upstream";
import { startMockTarget } from "../packages/mock-server/test/interop/interop-targets";
import {
  pydanticAiPeerUnavailableReason,
  pydanticAiPython,
  startPydanticAiPeer,
} from "../packages/mock-server/test/interop/pydantic-ai-peer";
import { installedVersions } from "../packages/mock-server/test/interop/python-peer";
import { type ContractStore, MemoryStore } from "../packages/server/src/index";
import { PostgresStore } from "../packages/server/src/store/postgres";
import { postgresUnavailable, startPostgres } from "../packages/server/test/support/postgres";

const RESUMES = Number(process.env.BENCH_GATEWAY_RESUMES ?? 100);
const EVENTS = Number(process.env.BENCH_GATEWAY_EVENTS ?? 5_000);
const SAMPLES = Number(process.env.BENCH_GATEWAY_SAMPLES ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const PARTS = process.env.BENCH_GATEWAY_PARTS?.split(",").map((part) => part.trim());
const wants = (part: string) => PARTS === undefined || PARTS.includes(part);

interface Endpoint {
  /** The run endpoint (`…/agent`). */
  readonly url: string;
  close(): Promise<void>;
}

/** Appends (on Postgres, one commit each) the gateways of this process made, for appends per run. */
let appends = 0;
function counted(store: ContractStore): ContractStore {
  const appendMany = store.appendMany.bind(store);
  store.appendMany = (...args) => {
    appends += 1;
    return appendMany(...args);
  };
  return store;
}

async function gatewayIn(upstream: string, store: ContractStore, threadLock?: ThreadLock): Promise<Endpoint> {
  const gateway: Gateway = createGateway({
    upstream,
    store: counted(store),
    sweepIntervalMs: 1_000,
    ...(threadLock ? { threadLock } : {}),
  });
  const http: Server = createServer(gateway.handler());
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/agent`,
    async close() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      await gateway.close();
    },
  };
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const median = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const range = (values: readonly number[]) =>
  `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;

/** POSTs a run; resolves with the ms to the body's first byte and to its end, and the whole text. */
async function timedPost(url: string, body: unknown, key?: string) {
  const sent = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "text/event-stream",
      ...(key ? { "idempotency-key": key } : {}),
    },
    body: JSON.stringify(body),
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  let firstByte = Number.NaN;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (Number.isNaN(firstByte)) firstByte = performance.now() - sent;
    text += decoder.decode(value, { stream: true });
  }
  return { firstByte, total: performance.now() - sent, text };
}

/** Asks to deploy on a fresh thread (untimed); returns the resume that approves it. */
async function askedResume(url: string) {
  const threadId = `bench-${randomUUID()}`;
  const { text } = await timedPost(url, {
    threadId,
    runId: randomUUID(),
    messages: [{ id: randomUUID(), role: "user", content: "please deploy to prod" }],
  });
  const interrupt = /"interrupts":\[\{"id":"([^"]+)"/.exec(text)?.[1];
  if (interrupt === undefined) throw new Error(`no question asked: ${text.slice(0, 300)}`);
  const key = randomUUID();
  const payload = { approved: true, accepted: true };
  const resume = [
    { interruptId: interrupt, status: "resolved", payload, metadata: { "x-idempotency-key": key } },
  ];
  return { body: { threadId, runId: randomUUID(), messages: [], resume }, key };
}

/**
 * `count` resumes, `concurrency` at a time, spread over `urls`; the questions are asked first,
 * untimed. First bytes are read one at a time (no queueing in them); rates with CONCURRENCY.
 */
async function resumes(urls: readonly string[], concurrency = CONCURRENCY, count = RESUMES) {
  const asked: Awaited<ReturnType<typeof askedResume>>[] = [];
  for (let index = 0; index < count; index += 1)
    asked.push(await askedResume(urls[index % urls.length] as string));
  const firstBytes: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let index = next++; index < asked.length; index = next++) {
        const { body, key } = asked[index] as (typeof asked)[number];
        // Another replica than the one that asked, as behind a balancer.
        const { firstByte, text } = await timedPost(urls[(index + 1) % urls.length] as string, body, key);
        if (!text.includes('"RUN_FINISHED"')) throw new Error(`a resume did not finish: ${text.slice(-300)}`);
        firstBytes.push(firstByte);
      }
    }),
  );
  const perSecond = count / ((performance.now() - started) / 1000);
  firstBytes.sort((a, b) => a - b);
  return { perSecond, p50: percentile(firstBytes, 50), p95: percentile(firstBytes, 95) };
}

/** Events per second of one long run (the user's message `content` asks for it), read to its end. */
async function throughput(url: string, content: string): Promise<number> {
  const { total, text } = await timedPost(url, {
    threadId: `bench-${randomUUID()}`,
    runId: randomUUID(),
    messages: [{ id: randomUUID(), role: "user", content }],
  });
  if (!text.includes('"RUN_FINISHED"')) throw new Error(`the long run did not finish: ${text.slice(-300)}`);
  const events = text.match(/^data: /gm)?.length ?? 0;
  if (events < EVENTS) throw new Error(`the long run had ${events} events, not ${EVENTS}`);
  return events / (total / 1000);
}

/** CPU ms of a Postgres cluster's processes (the postmaster and its children), from /proc; 0 elsewhere. */
function clusterCpuMs(dir: string): number {
  try {
    const postmaster = readFileSync(`${dir}/data/postmaster.pid`, "utf8").split("\n")[0];
    let ticks = 0;
    for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
      // After the command's closing parenthesis: state, ppid, … utime (12th), stime (13th).
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      if (pid === postmaster || fields[1] === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks * 10; // USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}
/** Set while the Postgres rows run: their gateways' database CPU per run is shown. */
let databaseCpu: (() => number) | undefined;
const nodeCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const say = (line: string) => console.log(line);
const ms = (value: number) => `${value.toFixed(2)} ms`;

/** The real Python peer, its own process on a free port; undefined (said why) where it cannot run. */
async function startRealPeer() {
  const unavailable = pydanticAiPeerUnavailableReason();
  if (unavailable !== undefined) {
    say(`   ${unavailable}: the real-peer rows are skipped.`);
    return undefined;
  }
  const versions = installedVersions(pydanticAiPython(), ["pydantic-ai-slim", "ag-ui-protocol"]);
  const peer = await startPydanticAiPeer("server").catch((error: unknown) => {
    say(`   the pydantic-ai peer did not start (${String(error)}): the real-peer rows are skipped.`);
  });
  if (peer === undefined) return undefined;
  const url = `${peer.url}/agent`;
  await throughput(url, `stream ${EVENTS}`); // untimed: the interpreter's first run
  say(
    `   real peer: pydantic-ai-slim ${versions["pydantic-ai-slim"]} (ag-ui-protocol ${versions["ag-ui-protocol"]}), Python, own process; "stream ${EVENTS}"`,
  );
  return { url, close: () => peer.close() };
}

const mock = await startMockTarget("af-lifecycle");
const bare = `${mock.url}/agent`;
const talker = await startFakeUpstream(({ body: { threadId, runId } }) => ({
  events: [
    { type: "RUN_STARTED", threadId, runId },
    { type: "TEXT_MESSAGE_START", messageId: `m-${runId}`, role: "assistant" },
    ...Array.from({ length: EVENTS }, (_, index) => ({
      type: "TEXT_MESSAGE_CONTENT",
      messageId: `m-${runId}`,
      delta: `word ${index} `,
    })),
    { type: "TEXT_MESSAGE_END", messageId: `m-${runId}` },
    { type: "RUN_FINISHED", threadId, runId, outcome: { type: "success" } },
  ],
}));

say(
  `gateway vs bare upstream: ${RESUMES} resumes ${CONCURRENCY} at a time; ${EVENTS}-event runs × ${SAMPLES}`,
);
const bareLatency = wants("resumes") ? await resumes([bare], 1) : undefined;
if (bareLatency !== undefined) {
  const bareResumes = await resumes([bare]);
  say(`   bare upstream resumes/s                    ${bareResumes.perSecond.toFixed(0)}`);
  say(
    `   bare upstream first byte (one at a time)   p50 ${ms(bareLatency.p50)}   p95 ${ms(bareLatency.p95)}`,
  );
}
const realPeer = wants("peer") ? await startRealPeer() : undefined;

async function compare(label: string, open: (upstream: string) => Promise<Endpoint>) {
  if (bareLatency !== undefined) {
    const resumeGateway = await open(bare);
    const through = await resumes([resumeGateway.url]);
    const latency = await resumes([resumeGateway.url], 1);
    await resumeGateway.close();
    say(`   ${`${label}: resumes/s`.padEnd(42)} ${through.perSecond.toFixed(0)}`);
    say(`   ${`${label}: first byte`.padEnd(42)} p50 ${ms(latency.p50)}   p95 ${ms(latency.p95)}`);
    say(
      `   ${`${label}: added to first byte`.padEnd(42)} p50 ${ms(latency.p50 - bareLatency.p50)}   p95 ${ms(latency.p95 - bareLatency.p95)}`,
    );
  }
  if (wants("synthetic")) await streams(label, talker.url, "talk", open);
  if (realPeer) await streams(`${label}, real peer`, realPeer.url, `stream ${EVENTS}`, open);
}

/** Events/s of one long run from `upstream`, straight and through a gateway, alternating. */
async function streams(
  label: string,
  upstream: string,
  content: string,
  open: (upstream: string) => Promise<Endpoint>,
) {
  const streamGateway = await open(upstream);
  const ratios: number[] = [];
  const own: number[] = [];
  const via: number[] = [];
  const writes: number[] = [];
  const nodeStraight: number[] = [];
  const nodeVia: number[] = [];
  const database: number[] = [];
  for (let sample = 0; sample < SAMPLES; sample += 1) {
    // Alternating, so drift in the machine's load falls on both alike.
    const upstreamCpu = nodeCpuMs();
    const upstreamRate = await throughput(upstream, content);
    nodeStraight.push(nodeCpuMs() - upstreamCpu);
    const before = { appends, node: nodeCpuMs(), database: databaseCpu?.() ?? 0 };
    const gatewayRate = await throughput(streamGateway.url, content);
    writes.push(appends - before.appends);
    nodeVia.push(nodeCpuMs() - before.node);
    const used = (databaseCpu?.() ?? 0) - before.database;
    // A backend that exited took its CPU time with it: that sample says nothing.
    if (used >= 0) database.push(used);
    own.push(upstreamRate);
    via.push(gatewayRate);
    ratios.push(gatewayRate / upstreamRate);
  }
  await streamGateway.close();
  say(`   ${`${label}: events/s upstream`.padEnd(42)} ${median(own).toFixed(0)} (${range(own)})`);
  say(`   ${`${label}: events/s through the gateway`.padEnd(42)} ${median(via).toFixed(0)} (${range(via)})`);
  say(`   ${`${label}: appends per run`.padEnd(42)} ${median(writes).toFixed(0)} (${range(writes)})`);
  say(
    `   ${`${label}: Node CPU ms per run`.padEnd(42)} straight ${median(nodeStraight).toFixed(0)} (${range(nodeStraight)}), through ${median(nodeVia).toFixed(0)} (${range(nodeVia)})`,
  );
  if (databaseCpu !== undefined)
    say(
      `   ${`${label}: Postgres CPU ms per run`.padEnd(42)} ${median(database).toFixed(0)} (${range(database)})`,
    );
  const ratio = median(ratios);
  say(
    `   ${`${label}: events/s gateway/upstream`.padEnd(42)} ${ratio.toFixed(2)}× (${Math.min(...ratios).toFixed(2)}×–${Math.max(...ratios).toFixed(2)}×)   target ≥ 0.9×   ${ratio >= 0.9 ? "met" : "NOT MET"}`,
  );
}

if (wants("memory")) await compare("memory store", (upstream) => gatewayIn(upstream, new MemoryStore()));
const unavailable = wants("postgres") ? postgresUnavailable() : "not asked for (BENCH_GATEWAY_PARTS)";
if (unavailable === undefined) {
  const postgres = await startPostgres({ fsync: true });
  databaseCpu = () => clusterCpuMs(postgres.dir);
  const onPostgres = async (upstream: string) => {
    // A schema of its own per gateway: the runs of one measurement never meet the other's.
    const store = await PostgresStore.open({
      connectionString: postgres.url,
      schema: `gw_${randomUUID().slice(0, 8)}`,
    });
    return gatewayIn(upstream, store, new PostgresThreadLock({ connectionString: postgres.url }));
  };
  try {
    await compare("Postgres (fsync on), 1 replica", onPostgres);
    if (wants("replicas")) {
      // Three replicas on one database: one schema, opened (migrated) once before the others.
      const shared = "gw_three";
      await (await PostgresStore.open({ connectionString: postgres.url, schema: shared })).close();
      const three = await Promise.all(
        [1, 2, 3].map(async () =>
          gatewayIn(
            bare,
            await PostgresStore.open({ connectionString: postgres.url, schema: shared }),
            new PostgresThreadLock({ connectionString: postgres.url }),
          ),
        ),
      );
      const spread = await resumes(three.map((replica) => replica.url));
      await Promise.all(three.map((replica) => replica.close()));
      say(`   ${"Postgres (fsync on), 3 replicas: resumes/s".padEnd(42)} ${spread.perSecond.toFixed(0)}`);
    }
  } finally {
    postgres.stop();
  }
} else {
  say(`   ${unavailable}: the Postgres rows are skipped.`);
}
await realPeer?.close();
await talker.close();
await mock.close();
