// `npm run soak:gateway-replicas`: the replica soak's topology with the gateway in it: three
// gateway processes (the CLI) on one real Postgres, behind a round-robin balancer, in front
// of the real Agent Framework 1.7 peer. Each run asks to deploy, answers (approve or reject)
// and delivers the answer as a durable client does (same key, same body, backoff,
// re-attach after a cut stream) while the peer's model fails or stalls after the tool, the
// tool is slow, streams are dropped and gateways are SIGKILLed and restarted. Checked where
// the truth is, the peer's ledger:
//   - every answer ends in a verdict (no dead end) within its retry budget;
//   - applied + approved ⇒ exactly one execution; rejected ⇒ none; never two
//     (INDETERMINATE: 0 or 1, a gateway killed mid-tool cannot know);
//   - one tool result per answer, received once; every stream's cursors are gap-free.
//   SOAK_RUNS=30 SOAK_SEED=7 SOAK_PARALLEL=3 npm run soak:gateway-replicas
import { randomUUID } from "node:crypto";
import { approval, askToDeploy, resume } from "@agui-outbox/conformance";
import { OutcomeCode } from "@agui-outbox/core/protocol";
import { PostgresStore } from "@agui-outbox/server/postgres";
import {
  peerUnavailableReason,
  startAgentFrameworkPeer,
} from "../../../mock-server/test/interop/agent-framework-peer";
import { SseReader } from "../../../mock-server/test/support/sse-reader";
import { ContractClient } from "../../../server/test/support/contract-client";
import { postgresUnavailable, startPostgres } from "../../../server/test/support/postgres";
import { startRoundRobinProxy } from "../../../server/test/support/round-robin-proxy";
import { GatewayReplicas } from "../support/gateway-replicas";

const RUNS = Number(process.env.SOAK_RUNS ?? 30);
const SEED = Number(process.env.SOAK_SEED ?? 1);
const PARALLEL = Number(process.env.SOAK_PARALLEL ?? 3);
const KILL_EVERY = Number(process.env.SOAK_KILL_EVERY ?? 8);

/** mulberry32: a small seeded generator, so a failing seed replays the same faults. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const unavailable = peerUnavailableReason("current") ?? postgresUnavailable();
if (unavailable !== undefined) {
  console.log(`${unavailable}: the gateway replica soak is skipped.`);
  process.exit(0);
}

const FAULTS: readonly (Record<string, unknown> | undefined)[] = [
  undefined,
  undefined,
  { point: "after-tool", action: "fail" },
  { point: "mid-tool", action: "delay", delayMs: 400 },
  { point: "after-tool", action: "delay", delayMs: 400 },
];

const postgres = await startPostgres();
const peer = await startAgentFrameworkPeer("current");
const replicas = new GatewayReplicas({ upstream: `${peer.url}/agent`, store: postgres.url, count: 3 });
const violations: string[] = [];
const verdicts = new Map<string, number>();
let kills = 0;
try {
  await (await PostgresStore.open({ connectionString: postgres.url })).close();
  await replicas.start();
  const proxy = await startRoundRobinProxy(() => replicas.live().map((replica) => replica.url));
  const client = new ContractClient(proxy.url);
  const target = {
    url: proxy.url,
    ledger: () => peer.ledger(),
    chaos: (f: readonly Record<string, unknown>[]) => peer.chaos(f),
  };

  const gapFree = (reader: SseReader, label: string) => {
    const seqs = reader.frames.map((frame) => Number(frame.id?.split(":").at(-1)));
    for (let index = 1; index < seqs.length; index += 1) {
      if (seqs[index] !== (seqs[index - 1] ?? 0) + 1)
        violations.push(`${label}: cursor gap ${seqs.join(",")}`);
    }
  };

  /** One read of a submission: POST, maybe dropped after a frame, then re-attached (through the balancer). */
  async function attempt(body: unknown, key: string, runId: string, drop: boolean) {
    const reader = await client.open(body, key).catch(() => undefined);
    if (reader === undefined) return [];
    if (!drop) {
      await reader.done;
      gapFree(reader, runId);
      return reader.frames;
    }
    await reader.waitFor((r) => r.frames.length >= 1).catch(() => {});
    await reader.cancel();
    const lastId = reader.frames.at(-1)?.id;
    if (lastId === undefined) return reader.frames;
    const response = await client.attach(runId, lastId).catch(() => undefined);
    if (response?.status !== 200) return reader.frames;
    const tail = new SseReader(response);
    await tail.done;
    return [...reader.frames, ...tail.frames];
  }

  async function soakRun(index: number): Promise<void> {
    let asked: Awaited<ReturnType<typeof askToDeploy>> | undefined;
    for (let tries = 0; tries < 20 && asked === undefined; tries += 1) {
      asked = await askToDeploy(target, `soak${SEED}-${index}`).catch(() => undefined);
      if (asked === undefined) await sleep(100 + tries * 50);
    }
    if (asked === undefined) {
      violations.push(`run ${index}: the question never arrived`);
      return;
    }
    const threadId = asked.threadId;
    const fault = pick(FAULTS);
    if (fault !== undefined) await peer.chaos([{ ...fault, threadId }]);
    const approve = random() < 0.8;
    const key = randomUUID();
    const body = resume(asked, approval(asked, approve), key);
    const seen = new Set<string>();
    const results: string[] = [];
    let verdict: string | undefined;
    for (let tries = 0; tries < 80 && verdict === undefined; tries += 1) {
      const frames = await attempt(body, key, body.runId, random() < 0.2);
      for (const { id, event } of frames) {
        // A frame re-read after a re-attach is the same frame (same id); only new ids count.
        if (id === undefined || seen.has(id)) continue;
        seen.add(id);
        if (event.type === "TOOL_CALL_RESULT") results.push(String(event.messageId));
      }
      const last = frames.at(-1)?.event;
      if (last?.type === "RUN_FINISHED") verdict = "applied";
      else if (last?.type === "RUN_ERROR") {
        const code = String(last.code);
        if (code !== OutcomeCode.UNAVAILABLE && code !== OutcomeCode.IN_PROGRESS) verdict = code;
      }
      if (verdict === undefined) await sleep(random() * Math.min(1_000, 50 * 2 ** Math.min(tries, 5)));
    }
    verdicts.set(verdict ?? "none", (verdicts.get(verdict ?? "none") ?? 0) + 1);
    const ran = (await peer.ledger()).filter((entry) => entry.threadId === threadId).length;
    if (verdict === undefined) violations.push(`${threadId}: no verdict after 80 tries (a dead end)`);
    if (ran > 1) violations.push(`${threadId}: the tool ran ${ran} times`);
    if (new Set(results).size > 1)
      violations.push(`${threadId}: ${new Set(results).size} different tool results`);
    if (results.length > new Set(results).size) violations.push(`${threadId}: a tool result received twice`);
    if (verdict === "applied" && approve && ran !== 1)
      violations.push(`${threadId}: applied an approval, but the tool ran ${ran} times`);
    if (!approve && ran !== 0) violations.push(`${threadId}: rejected, but the tool ran`);
  }

  let next = 0;
  let done = 0;
  const chaos = (async () => {
    let lastKill = 0;
    while (done < RUNS) {
      await sleep(50);
      if (done - lastKill < KILL_EVERY) continue;
      lastKill = done;
      const victim = pick(replicas.replicas).id;
      await replicas.kill(victim);
      kills += 1;
      await sleep(300);
      await replicas.restart(victim);
    }
  })().catch((error: unknown) => {
    violations.push(`chaos: a gateway did not come back (${(error as Error).message.split("\n")[0]})`);
  });
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let index = next++; index < RUNS; index = next++) {
        await soakRun(index);
        done += 1;
      }
    }),
  );
  await chaos;
  await proxy.close();
} finally {
  await replicas.stop();
  await peer.close();
  postgres.stop();
}

const summary = [...verdicts.entries()].map(([verdict, count]) => `${verdict} ${count}`).join(", ");
console.log(
  `gateway replica soak over Agent Framework (seed ${SEED}): ${RUNS} runs, ${kills} gateway kills; verdicts: ${summary}`,
);
for (const violation of violations) console.log(`violation: ${violation}`);
console.log(`${violations.length} violations`);
process.exitCode = violations.length > 0 ? 1 : 0;
