// What the replica soaks share: a seeded random (a failing seed replays the same faults),
// the cursor-gap check, the checks of one delivered answer against the ledger, and the
// loop that runs answers in parallel while one replica at a time is killed and restarted.
import type { SseReader } from "../../../mock-server/test/support/sse-reader";

export interface Soak {
  readonly random: () => number;
  readonly pick: <T>(items: readonly T[]) => T;
  readonly violations: string[];
}

/** mulberry32: a small seeded generator. */
export function createSoak(seed: number): Soak {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  return { random, pick, violations: [] };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function gapFree(soak: Soak, reader: SseReader, label: string): void {
  const seqs = reader.frames.map((frame) => Number(frame.id?.split(":").at(-1)));
  for (let index = 1; index < seqs.length; index += 1) {
    if (seqs[index] !== (seqs[index - 1] ?? 0) + 1)
      soak.violations.push(`${label}: cursor gap ${seqs.join(",")}`);
  }
}

export interface DeliveredAnswer {
  readonly threadId: string;
  readonly verdict: string | undefined;
  readonly approved: boolean;
  /** Executions in the ledger for the thread. */
  readonly ran: number;
  /** The message id of every tool result received, a re-read frame counted once. */
  readonly results: readonly string[];
}

/** INDETERMINATE allows 0 or 1 executions (a replica killed mid-tool cannot know); never 2. */
export function checkAnswer(soak: Soak, answer: DeliveredAnswer): void {
  const { threadId, verdict, ran, results } = answer;
  const add = (what: string) => soak.violations.push(`${threadId}: ${what}`);
  if (verdict === undefined) add("no verdict after 80 tries (a dead end)");
  if (ran > 1) add(`the tool ran ${ran} times`);
  const distinct = new Set(results).size;
  if (distinct > 1) add(`${distinct} different tool results for one answer`);
  if (results.length > distinct) add("a tool result received twice");
  if (verdict === "applied" && answer.approved && ran !== 1)
    add(`applied an approval, but the tool ran ${ran} times`);
  if (!answer.approved && ran !== 0) add("rejected, but the tool ran");
}

export interface Fleet {
  readonly replicas: readonly { readonly id: string }[];
  kill(id: string): Promise<void>;
  restart(id: string): Promise<void>;
}

/** Runs `run(0…runs-1)`, `parallel` at a time, killing a replica every `killEvery` runs; returns the kills. */
export async function soakWithKills(
  soak: Soak,
  options: {
    runs: number;
    parallel: number;
    killEvery: number;
    fleet: Fleet;
    run: (index: number) => Promise<void>;
  },
): Promise<number> {
  const { runs, parallel, killEvery, fleet } = options;
  let next = 0;
  let done = 0;
  let kills = 0;
  const chaos = (async () => {
    let lastKill = 0;
    while (done < runs) {
      await sleep(50);
      if (done - lastKill < killEvery) continue;
      lastKill = done;
      const victim = soak.pick(fleet.replicas).id;
      await fleet.kill(victim);
      kills += 1;
      await sleep(300);
      await fleet.restart(victim);
    }
  })().catch((error: unknown) => {
    soak.violations.push(`chaos: a replica did not come back (${(error as Error).message.split("\n")[0]})`);
  });
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let index = next++; index < runs; index = next++) {
        await options.run(index);
        done += 1;
      }
    }),
  );
  await chaos;
  return kills;
}
