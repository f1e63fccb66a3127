// Benchmark 5: re-attach after a dropped stream, server healthy (Node, fake-indexeddb).
// Each sample answers an interrupt while the mock server's chaos queue holds a
// `mid-stream` `drop` after 2 frames for that thread: the resume's stream is cut
// right after the claim acknowledgement, the run goes on server-side. Timed, from
// the moment the client's read of the dropped body fails:
//   to the re-attach request (`GET /runs/{runId}/events` with Last-Event-ID) issued;
//   to the first byte of a re-delivered event (`data:`) on that request.
// The mock's tool takes 5 ms, so later events exist by the time the client asks.
// Target: p95 ≤ 0.5 s (drop → first re-delivered event), over BENCH_RUNS slices of the samples.
import { type MockServer, startMockServer } from "@agui-outbox/mock-server";
import type { FetchLike } from "../packages/core/src/client/deps.ts";
import {
  askForDeployment,
  entriesReach,
  IDBFactory,
  nodeClient,
  startDurable,
} from "./support/node-client.ts";
import { benchPort, PortOffset } from "./support/ports.ts";
import { envInt, figure, heading, median, ms, percentile, RUNS, spread, target } from "./support/report.ts";

const SAMPLES = envInt("BENCH_REATTACH_SAMPLES", 100);

interface Marks {
  droppedAt?: number;
  reattachAt?: number;
  firstEventAt?: number;
}

/** Re-wraps a body so the first failed read, or the first `data:` byte, is noted. */
function watchBody(response: Response, onChunk: (text: string) => void, onError: () => void): Response {
  const body = response.body;
  if (!body) return response;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        onChunk(decoder.decode(value, { stream: true }));
        controller.enqueue(value);
      } catch (error) {
        onError();
        controller.error(error);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(stream, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

function markingFetch(marks: Marks): FetchLike {
  return async (input, init) => {
    const isResume = new Headers(init?.headers).has("idempotency-key");
    const isReattach = (init?.method ?? "GET") === "GET" && /\/runs\/[^/]+\/events/.test(input);
    if (isReattach && marks.reattachAt === undefined) marks.reattachAt = performance.now();
    const response = await fetch(input, init);
    if (isResume) {
      return watchBody(
        response,
        () => {},
        () => {
          marks.droppedAt ??= performance.now();
        },
      );
    }
    if (isReattach) {
      return watchBody(
        response,
        (text) => {
          if (text.includes("data:")) marks.firstEventAt ??= performance.now();
        },
        () => {},
      );
    }
    return response;
  };
}

async function chaos(server: MockServer, fault: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${server.url}/__chaos`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ faults: [fault] }),
  });
  if (!response.ok) throw new Error(`chaos refused: ${response.status}`);
}

const server = await startMockServer({ port: benchPort(PortOffset.mock), toolDurationMs: 5 });
let marks: Marks = {};
const client = nodeClient(`${server.url}/agent`, new IDBFactory(), {
  deps: { fetch: (input, init) => markingFetch(marks)(input, init) },
});
try {
  await startDurable(client);
  const toRequest: number[] = [];
  const toEvent: number[] = [];
  for (let index = 0; index < SAMPLES + 2; index += 1) {
    const threadId = `t-${index}`;
    const interrupt = await askForDeployment(client, threadId);
    await chaos(server, { point: "mid-stream", action: "drop", afterEvents: 2, threadId });
    marks = {};
    const entry = await client.answer({ threadId, interruptId: interrupt.id, approved: true });
    await entriesReach(client, (entries) =>
      entries.some((e) => e.key === entry.key && e.state === "applied"),
    );
    const { droppedAt, reattachAt, firstEventAt } = marks;
    if (droppedAt === undefined || reattachAt === undefined || firstEventAt === undefined) {
      throw new Error("the stream was not dropped and re-attached as scheduled");
    }
    if (index < 2) continue; // warm-up
    toRequest.push(reattachAt - droppedAt);
    toEvent.push(firstEventAt - droppedAt);
  }
  // BENCH_RUNS consecutive slices of the samples, each a run of its own.
  const slices = (values: readonly number[]) =>
    Array.from({ length: RUNS }, (_, run) =>
      values.slice(Math.floor((run * values.length) / RUNS), Math.floor(((run + 1) * values.length) / RUNS)),
    );
  const per = (values: readonly number[], pick: (slice: number[]) => number) => slices(values).map(pick);
  heading(
    "5. Re-attach after a dropped stream (Node)",
    `${SAMPLES} drops after 2 warm-up in ${RUNS} runs, server healthy, fake-indexeddb; median (range) over runs`,
  );
  figure(
    "drop → re-attach request issued",
    `p50 ${spread(per(toRequest, median), ms)}   p95 ${spread(
      per(toRequest, (slice) => percentile(slice, 95)),
      ms,
    )}`,
  );
  const p95s = per(toEvent, (slice) => percentile(slice, 95));
  figure(
    "drop → first re-delivered event",
    `p50 ${spread(per(toEvent, median), ms)}   p95 ${spread(p95s, ms)}`,
  );
  target("p95 drop → first re-delivered event", spread(p95s, ms), "≤ 0.5 s", median(p95s) <= 500);
} finally {
  client.dispose();
  await server.close();
}
