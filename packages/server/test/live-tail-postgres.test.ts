import { randomUUID } from "node:crypto";
import { Client, Pool } from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PostgresStore } from "../src/store/postgres";
import { LiveTail } from "../src/store/postgres/live-tail";
import { freePort, postgresUnavailable, startPostgres, type TestPostgres } from "./support/postgres";

/** Counts wakes; `next()` resolves at the next one, so a test waits for the event, not a delay. */
function wakeLog() {
  let count = 0;
  const waiting: (() => void)[] = [];
  return {
    wake: () => {
      count += 1;
      for (const resolve of waiting.splice(0)) resolve();
    },
    next: () => new Promise<void>((resolve) => waiting.push(resolve)),
    get count() {
      return count;
    },
  };
}

/** Timers that run only when the test fires them, oldest first. */
function manualTimers() {
  const due: { run: () => void; ms: number }[] = [];
  return {
    due,
    setTimeout: (run: () => void, ms: number) => {
      const timer = { run, ms };
      due.push(timer);
      return timer;
    },
    clearTimeout: (timer: unknown) => {
      const at = due.indexOf(timer as (typeof due)[number]);
      if (at >= 0) due.splice(at, 1);
    },
    fire: () => due.shift()?.run(),
  };
}

const RUN_STARTED = { type: "RUN_STARTED", threadId: "t", runId: "r1" } as never;

describe.skipIf(postgresUnavailable() !== undefined)("the Postgres live tail", () => {
  let postgres: TestPostgres;
  let refused: string;
  beforeAll(async () => {
    postgres = await startPostgres();
    refused = `postgres://postgres@127.0.0.1:${await freePort()}/postgres`;
  }, 60_000);
  afterAll(() => postgres?.stop());

  const schema = () => `t_${randomUUID().replaceAll("-", "").slice(0, 16)}`;

  test("a refused LISTEN connect is tried again, and a later watcher is woken", async () => {
    const name = schema();
    const writer = await PostgresStore.open({ connectionString: postgres.url, schema: name });
    const timers = manualTimers();
    let connects = 0;
    const client = () => {
      connects += 1;
      return new Client({ connectionString: connects === 1 ? refused : postgres.url });
    };
    const tail = new LiveTail({}, `${name}_events`, { client, ...timers, random: () => 1 });
    try {
      await writer.beginRun("r1", "t", "A", 60_000);
      const first = wakeLog();
      await tail.watch("r1", first.wake);
      expect(tail.state).toMatchObject({ name: "waiting", attempt: 2, reason: /ECONNREFUSED/ });

      // Nothing was heard while no one listened: the reconnect wakes the watcher to re-read the log.
      const reconnected = first.next();
      timers.fire();
      await reconnected;
      const later = wakeLog();
      await tail.watch("r1", later.wake);
      const heard = later.next();
      await writer.append("r1", "A", RUN_STARTED);
      await heard;
      expect(connects).toBe(2);
      expect(tail.state).toEqual({ name: "listening" });
    } finally {
      await tail.close();
      await writer.close();
    }
  });

  test("a dropped LISTEN connection wakes its watchers and reconnects after a backoff", async () => {
    const name = schema();
    const writer = await PostgresStore.open({ connectionString: postgres.url, schema: name });
    const admin = new Pool({ connectionString: postgres.url });
    const timers = manualTimers();
    const tail = new LiveTail({ connectionString: postgres.url }, `${name}_events`, {
      ...timers,
      random: () => 1,
    });
    try {
      await writer.beginRun("r1", "t", "A", 60_000);
      const watcher = wakeLog();
      await tail.watch("r1", watcher.wake);

      const dropped = watcher.next();
      const killed = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1",
        [`LISTEN "${name}_events"`],
      );
      expect(killed.rowCount).toBe(1);
      await dropped;
      expect(tail.state).toMatchObject({ name: "waiting", attempt: 1, reason: /terminat/ });
      expect(timers.due.map((timer) => timer.ms)).toEqual([250]);

      const reconnected = watcher.next();
      timers.fire();
      await reconnected;
      const heard = watcher.next();
      await writer.append("r1", "A", RUN_STARTED);
      await heard;
      expect(watcher.count).toBe(3);
    } finally {
      await tail.close();
      await admin.end();
      await writer.close();
    }
  });

  test("reconnects back off to a cap and stop when their budget is spent", async () => {
    const timers = manualTimers();
    let connects = 0;
    const client = () => {
      connects += 1;
      return new Client({ connectionString: refused });
    };
    const tail = new LiveTail({}, "never_events", { client, ...timers, random: () => 1 });
    const delays: number[] = [];
    await tail.watch("r1", () => {});
    while (timers.due.length > 0) {
      delays.push(...timers.due.map((timer) => timer.ms));
      timers.fire();
      // A watch waits for the connect under way, so each round ends after its attempt.
      await tail.watch("r1", () => {});
    }
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(connects).toBe(10);
    expect(tail.state).toMatchObject({ name: "failed", attempts: 10, reason: /ECONNREFUSED/ });

    // Spent is not for good: the next reader to arrive tries again, once, then backs off.
    await tail.watch("r2", () => {});
    expect(connects).toBe(11);
    expect(tail.state).toMatchObject({ name: "waiting", attempt: 2 });
    await tail.close();
    expect(timers.due).toEqual([]);
  });
});
