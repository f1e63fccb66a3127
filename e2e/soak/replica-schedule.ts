// Schedules for SOAK_TOPOLOGY=replicas: the contract's schedules of the same seed, with replica
// kills among the faults. A `crash` fault already kills the replica it fires on; a kill asks the
// supervisor (e2e/support/replicas/mock-replicas.ts) to SIGKILL a replica while the answer is
// delivered: the one holding the thread's claim (mid-tool, after the claim), the one running its
// stream (mid-stream), or any one. The af-* emulations are one process on memory by design, so a
// seed that draws one runs the contract instead, with the faults it drew.
import { mulberry32 } from "./prng";
import { describeSchedule, drawSchedule, type Schedule } from "./schedule";

export interface ReplicaKill {
  readonly target: "claim-holder" | "run-owner" | "random";
  /** How long the supervisor waits for the claim or stream to show before it kills a random replica. */
  readonly waitMs: number;
  /** For "run-owner": kill once the stream has sent this many events. */
  readonly afterEvents: number;
  /** For "random": milliseconds after the answer is given. */
  readonly delayMs: number;
}

export interface ReplicaSchedule extends Schedule {
  readonly kills: readonly ReplicaKill[];
}

export function drawReplicaSchedule(seed: number): ReplicaSchedule {
  const drawn = drawSchedule(seed);
  // A stream of its own, so the rest of the schedule is the one the seed draws in every topology.
  const random = mulberry32((seed ^ 0x2f6b3c1d) >>> 0);
  const kills: ReplicaKill[] = [];
  for (let count = random.pick([0, 1, 1, 1, 2]); count > 0; count -= 1) {
    const target = random.pick<ReplicaKill["target"]>([
      "claim-holder",
      "claim-holder",
      "run-owner",
      "random",
    ]);
    kills.push({ target, waitMs: 8_000, afterEvents: random.int(1, 4), delayMs: random.int(0, 1500) });
  }
  return { ...drawn, server: "fixed", kills };
}

export function describeReplicaSchedule(schedule: ReplicaSchedule): string {
  const kills = schedule.kills
    .map((kill) =>
      kill.target === "random"
        ? `random@${kill.delayMs}ms`
        : kill.target === "run-owner"
          ? `run-owner@${kill.afterEvents}ev`
          : kill.target,
    )
    .join(",");
  return `${describeSchedule(schedule)}; replica kills ${kills || "none"}`;
}

/**
 * Starts the schedule's kills, one after another, right before the answer is given; the
 * returned promise says what each did, once all are done.
 */
export function startKills(
  mockUrl: string,
  threadId: string,
  kills: readonly ReplicaKill[],
): Promise<string> {
  const run = async () => {
    const done: string[] = [];
    for (const kill of kills) {
      if (kill.target === "random") await new Promise((resolve) => setTimeout(resolve, kill.delayMs));
      const response = await fetch(`${mockUrl}/__kill-replica`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ threadId, ...kill }),
      });
      const answer = (await response.json()) as { killed?: string | null; why?: string; error?: string };
      done.push(`${answer.killed ?? "none"} (${answer.why ?? answer.error ?? response.status})`);
    }
    return done.join(", ") || "no kills";
  };
  return run().catch((error: unknown) => `kills failed: ${error instanceof Error ? error.message : error}`);
}
