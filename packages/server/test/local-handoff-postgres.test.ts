import { randomUUID } from "node:crypto";
import type { AgUiEvent } from "@agui-outbox/core/protocol";
import { Pool, type PoolClient } from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { followRun } from "../src/http/follow-run";
import type { SseStream } from "../src/http/sse-stream";
import { PostgresStore } from "../src/store/postgres";
import { postgresUnavailable, startPostgres, type TestPostgres } from "./support/postgres";

const text = (delta: string) => ({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta }) as AgUiEvent;
const RUN_STARTED = { type: "RUN_STARTED", threadId: "t", runId: "r1" } as AgUiEvent;
const RUN_FINISHED = { type: "RUN_FINISHED", threadId: "t", runId: "r1" } as AgUiEvent;
/** No poll fires during a test: every frame a reader gets comes from a wake. */
const NO_POLL_MS = 600_000;

/** What a reader wrote, by seq; `until(n)` resolves once it has n frames. */
function recordingStream() {
  const seqs: number[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  let ended = false;
  const stream = {
    closed: false,
    writeFrame(id: string | undefined) {
      seqs.push(Number(id?.split(":").at(-1)));
      for (const wait of waiting.filter((w) => seqs.length >= w.count)) wait.resolve();
    },
    end() {
      ended = true;
    },
    drop() {},
    onClose() {},
  };
  return {
    stream: stream as unknown as SseStream,
    seqs,
    get ended() {
      return ended;
    },
    until: (count: number) =>
      new Promise<void>((resolve) => {
        if (seqs.length >= count) resolve();
        else waiting.push({ count, resolve });
      }),
  };
}

/** The pool's reads of a run's log (`frames`), counted as the database sees them. */
function countLogReads(pool: Pool) {
  const counter = { reads: 0 };
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: unknown }).query = (...args: unknown[]) => {
    if (typeof args[0] === "string" && /SELECT seq, event FROM .*run_events/.test(args[0]))
      counter.reads += 1;
    return query(...args);
  };
  return counter;
}

describe.skipIf(postgresUnavailable() !== undefined)(
  "committed batches handed to this instance's readers",
  () => {
    let postgres: TestPostgres;
    beforeAll(async () => {
      postgres = await startPostgres();
    }, 60_000);
    afterAll(() => postgres?.stop());

    const schema = () => `h_${randomUUID().replaceAll("-", "").slice(0, 16)}`;

    test("a local reader gets each committed batch without reading the log again", async () => {
      const pool = new Pool({ connectionString: postgres.url });
      const store = await PostgresStore.open({ pool, schema: schema() });
      const log = countLogReads(pool);
      try {
        await store.beginRun("r1", "t", "A", 60_000);
        const reader = recordingStream();
        const following = followRun(store, "r1", 0, reader.stream, NO_POLL_MS);
        await following;
        const before = log.reads;

        await store.appendMany("r1", "A", [RUN_STARTED, text("a"), text("b")]);
        await reader.until(3);
        await store.appendMany("r1", "A", [text("c"), text("d")]);
        await reader.until(5);
        expect(reader.seqs).toEqual([1, 2, 3, 4, 5]);
        expect(log.reads).toBe(before);

        await store.appendMany("r1", "A", [RUN_FINISHED]);
        await reader.until(6);
        expect(reader.seqs).toEqual([1, 2, 3, 4, 5, 6]);
      } finally {
        await store.close();
        await pool.end();
      }
    });

    test("a batch whose commit is pending or fails reaches no reader", async () => {
      const pool = new Pool({ connectionString: postgres.url });
      const store = await PostgresStore.open({ pool, schema: schema() });
      const reader = recordingStream();
      try {
        await store.beginRun("r1", "t", "A", 60_000);
        await followRun(store, "r1", 0, reader.stream, NO_POLL_MS);
        await store.appendMany("r1", "A", [RUN_STARTED]);
        await reader.until(1);

        // The terminal batch settles in a transaction: its COMMIT is held, then refused.
        const connect = pool.connect.bind(pool) as () => Promise<PoolClient>;
        let seenAtCommit: number[] | undefined;
        (pool as unknown as { connect: unknown }).connect = async () => {
          const client = await connect();
          const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
          (client as unknown as { query: unknown }).query = async (...args: unknown[]) => {
            if (args[0] !== "COMMIT") return query(...args);
            seenAtCommit = [...reader.seqs];
            throw new Error("commit refused");
          };
          return client;
        };
        const settle = { kind: "rollback" } as const;
        await expect(store.appendMany("r1", "A", [text("x"), RUN_FINISHED], settle)).rejects.toThrow(
          "commit refused",
        );
        expect(seenAtCommit).toEqual([1]);
        expect(reader.seqs).toEqual([1]);
        expect(reader.ended).toBe(false);
      } finally {
        await store.close();
        await pool.end();
      }
    });
  },
);
