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
import { checkAnswer, createSoak, gapFree, sleep, soakWithKills } from "../../../server/test/soak/soak-kit";
import { ContractClient } from "../../../server/test/support/contract-client";
import { postgresUnavailable, startPostgres } from "../../../server/test/support/postgres";
import { startRoundRobinProxy } from "../../../server/test/support/round-robin-proxy";
import { GatewayReplicas } from "../support/gateway-replicas";

const RUNS = Number(process.env.SOAK_RUNS ?? 30);
const SEED = Number(process.env.SOAK_SEED ?? 1);
const PARALLEL = Number(process.env.SOAK_PARALLEL ?? 3);
const KILL_EVERY = Number(process.env.SOAK_KILL_EVERY ?? 8);

const soak = createSoak(SEED);
const { random, pick, violations } = soak;

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

  /** One read of a submission: POST, maybe dropped after a frame, then re-attached (through the balancer). */
  async function attempt(body: unknown, key: string, runId: string, drop: boolean) {
    // A request a killed replica refused is a try that read nothing; the caller retries it.
    const reader = await client.open(body, key).catch(() => undefined);
    if (reader === undefined) return [];
    if (!drop) {
      await reader.done;
      gapFree(soak, reader, runId);
      return reader.frames;
    }
    // A stream that ends before its first frame is cut all the same: the checks below read what arrived.
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
    checkAnswer(soak, { threadId, verdict, approved: approve, ran, results });
  }

  kills = await soakWithKills(soak, {
    runs: RUNS,
    parallel: PARALLEL,
    killEvery: KILL_EVERY,
    fleet: replicas,
    run: soakRun,
  });
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
