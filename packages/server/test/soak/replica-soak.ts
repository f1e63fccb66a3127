// `npm run soak:replicas`: the seeded soak against three server replicas on one real
// Postgres behind a round-robin proxy. Each run asks to deploy, answers (approve, edit or
// reject) and delivers the answer the way a durable client does — same key, same body,
// backoff, re-attach after a cut stream — while faults hit it: the agent fails after the
// tool, the tool is cut off, streams are dropped mid-run, and replicas are SIGKILLed and
// restarted. Every run is then checked where the truth is, the ledger:
//   - every answer ends in a verdict (no dead end), within its retry budget;
//   - applied + approved ⇒ exactly one execution; rejected ⇒ none; never two (INDETERMINATE: 0 or 1);
//   - a reused result is the one first stored (same message id);
//   - every stream's cursors are gap-free.
// A quarter of the runs are background runs polled with continuation tokens, their submissions
// failing now and then: they end completed or failed, their tool ran at most once, and a
// completed deploy ran it exactly once.
//   SOAK_RUNS=200 SOAK_SEED=7 SOAK_PARALLEL=4 npm run soak:replicas
import { randomUUID } from "node:crypto";
import { OutcomeCode } from "@agui-outbox/core/protocol";
import { Pool } from "pg";
import { SseReader } from "../../../mock-server/test/support/sse-reader";
import { PostgresStore } from "../../src/store/postgres";
import {
  ContractClient,
  type JsonAnswer,
  pollBackground,
  readJson,
  resumeBody,
} from "../support/contract-client";
import { postgresUnavailable, startPostgres } from "../support/postgres";
import { armFaults, createFaultTable } from "../support/postgres-faults";
import { createLedgerTable, postgresLedger } from "../support/postgres-ledger";
import { ReplicaSet } from "../support/replica-set";
import { startRoundRobinProxy } from "../support/round-robin-proxy";
import { backgroundStart } from "../support/scripted-background";
import { checkAnswer, createSoak, gapFree, sleep, soakWithKills } from "./soak-kit";

const RUNS = Number(process.env.SOAK_RUNS ?? 50);
const SEED = Number(process.env.SOAK_SEED ?? 1);
const PARALLEL = Number(process.env.SOAK_PARALLEL ?? 4);
const KILL_EVERY = Number(process.env.SOAK_KILL_EVERY ?? 15);
const SCHEMA = "soak";

const soak = createSoak(SEED);
const { random, pick, violations } = soak;

const unavailable = postgresUnavailable();
if (unavailable !== undefined) {
  console.log(`${unavailable}: the replica soak is skipped.`);
  process.exit(0);
}

const postgres = await startPostgres();
const pool = new Pool({ connectionString: postgres.url });
let kills = 0;
const verdicts = new Map<string, number>();
const replicas = new ReplicaSet({
  databaseUrl: postgres.url,
  schema: SCHEMA,
  count: 3,
  env: { REPLICA_LEASE_MS: "2000", REPLICA_SWEEP_MS: "200" },
});
try {
  await (await PostgresStore.open({ pool, schema: SCHEMA })).close();
  await createLedgerTable(pool, SCHEMA);
  await createFaultTable(pool, SCHEMA);
  const ledger = postgresLedger(pool, SCHEMA);
  await replicas.start();
  const proxy = await startRoundRobinProxy(() => replicas.urls());
  const client = new ContractClient(proxy.url);

  /** One read of a submission: POST, maybe dropped after a few frames, then re-attached. */
  async function attempt(
    body: unknown,
    key: string,
    runId: string,
    drop: boolean,
  ): Promise<SseReader | undefined> {
    const reader = await client.open(body, key).catch(() => undefined);
    if (reader === undefined) return undefined;
    if (!drop) {
      await reader.done;
      gapFree(soak, reader, runId);
      return reader;
    }
    await reader.waitFor((r) => r.frames.length >= 1).catch(() => {});
    await reader.cancel();
    const lastId = reader.frames.at(-1)?.id;
    if (lastId === undefined) return undefined;
    const response = await client.attach(runId, lastId).catch(() => undefined);
    if (response?.status !== 200) return undefined;
    const tail = new SseReader(response);
    await tail.done;
    return tail;
  }

  /**
   * A background run polled the way a durable client does: the held token again after any
   * failure, and the run's status for the current token when the held one was advanced by a
   * poll whose answer was lost.
   */
  async function backgroundRun(threadId: string): Promise<void> {
    const flags = pick(["", "", "[slow-tool:400]", "[tool-throws]"]);
    const runId = `bg-${randomUUID()}`;
    const key = randomUUID();
    if (random() < 0.3)
      await armFaults(pool, SCHEMA, [{ threadId, point: "background-submit", action: "status" }]);
    let token = "";
    for (let tries = 0; tries < 40 && token === ""; tries += 1) {
      const started = await client
        .post(backgroundStart(threadId, runId, `deploy prod ${flags}`), key)
        .then(readJson)
        .catch(() => undefined);
      if (started?.status === 202) token = String(started.body.continuationToken);
      else await sleep(100 + tries * 50);
    }
    if (token === "") {
      violations.push(`${threadId}: the background run never started`);
      return;
    }
    const resultIds = new Set<string>();
    let ending: string | undefined;
    for (let tries = 0; tries < 80 && ending === undefined; tries += 1) {
      const polled: JsonAnswer | undefined = await pollBackground(proxy.url, token).catch(() => undefined);
      for (const event of polled?.body.events ?? []) {
        if (event.type === "TOOL_CALL_RESULT") resultIds.add(String(event.messageId));
      }
      if (polled?.status === 200) {
        if (polled.body.status === "completed") ending = "completed";
        else if (polled.body.status === "failed") ending = String(polled.body.error?.code);
        else token = String(polled.body.continuationToken);
        continue;
      }
      if (polled?.body.error?.code === OutcomeCode.BACKGROUND_TOKEN_STALE) {
        const status = await client
          .status(runId)
          .then(
            (response) => response.json() as Promise<{ continuationToken: string | null; terminal: unknown }>,
          )
          .catch(() => undefined);
        if (status?.continuationToken) token = status.continuationToken;
        else if (status?.terminal) ending = "ended (read from its status)";
        continue;
      }
      await sleep(random() * Math.min(1_000, 50 * 2 ** Math.min(tries, 5)));
    }
    verdicts.set(`background ${ending ?? "none"}`, (verdicts.get(`background ${ending ?? "none"}`) ?? 0) + 1);
    const ran = (await ledger.entries(threadId)).length;
    if (ending === undefined) violations.push(`${threadId}: the background run never ended (a dead end)`);
    if (ran > 1) violations.push(`${threadId}: the background tool ran ${ran} times`);
    if (ending === "completed" && ran !== 1)
      violations.push(`${threadId}: completed, but the tool ran ${ran} times`);
    if (resultIds.size > 1) violations.push(`${threadId}: ${resultIds.size} different background results`);
  }

  async function soakRun(index: number): Promise<void> {
    const threadId = `soak-${SEED}-${index}`;
    if (random() < 0.25) return backgroundRun(threadId);
    const flags = pick(["", "", "[fail-model-once]", "[tool-throws]", "[slow-tool:400]", "[slow-model:400]"]);
    const asked = await (async () => {
      for (let tries = 0; tries < 40; tries += 1) {
        try {
          return await client.askToDeploy(threadId, `deploy prod ${flags}`);
        } catch {
          // The question may have been asked with its stream cut: hydrate, as a reloaded page does.
          const hydrated = await client
            .run({ threadId, runId: `h-${randomUUID()}`, messages: [] })
            .catch(() => undefined);
          const last = hydrated?.events.at(-1) as { outcome?: { interrupts?: { id: string }[] } } | undefined;
          const open = last?.outcome?.interrupts?.[0];
          if (open !== undefined) return { interruptId: open.id };
          await sleep(100 + tries * 50);
        }
      }
      return undefined;
    })();
    if (asked === undefined) {
      violations.push(`${threadId}: the question never arrived`);
      return;
    }
    const decision = pick(["approve", "approve", "edit", "reject"]);
    const payload =
      decision === "approve"
        ? { approved: true }
        : decision === "edit"
          ? { approved: true, editedArgs: { target: "staging" } }
          : { approved: false };
    const key = randomUUID();
    const runId = `resume-${key}`;
    const body = resumeBody(threadId, runId, asked.interruptId, key, payload);
    const resultIds = new Set<string>();
    let verdict: string | undefined;
    for (let tries = 0; tries < 80 && verdict === undefined; tries += 1) {
      const reader = await attempt(body, key, runId, random() < 0.2);
      for (const event of reader?.events ?? []) {
        if (event.type === "TOOL_CALL_RESULT") resultIds.add(String(event.messageId));
      }
      const last = reader?.events.at(-1);
      if (last?.type === "RUN_FINISHED") verdict = "applied";
      else if (last?.type === "RUN_ERROR") {
        const code = String(last.code);
        if (code !== OutcomeCode.UNAVAILABLE && code !== OutcomeCode.IN_PROGRESS) verdict = code;
      }
      // Full-jitter backoff with a small cap: the budget is the number of tries.
      if (verdict === undefined) await sleep(random() * Math.min(1_000, 50 * 2 ** Math.min(tries, 5)));
    }
    verdicts.set(verdict ?? "none", (verdicts.get(verdict ?? "none") ?? 0) + 1);
    const ran = (await ledger.entries(threadId)).length;
    checkAnswer(soak, { threadId, verdict, approved: decision !== "reject", ran, results: [...resultIds] });
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
  await pool.end();
  postgres.stop();
}

const summary = [...verdicts.entries()].map(([verdict, count]) => `${verdict} ${count}`).join(", ");
console.log(`replica soak (seed ${SEED}): ${RUNS} runs, ${kills} replica kills; verdicts: ${summary}`);
for (const violation of violations) console.log(`violation: ${violation}`);
console.log(`${violations.length} violations`);
process.exitCode = violations.length > 0 ? 1 : 0;
