// Page side of benchmark 2 (stream consumption in Chromium). Bundled by
// bench/support/browser-page.ts; the recording is served by the benchmark's own
// node:http server in network-sized writes. The same page is opened twice: the
// measuring tab, and a second tab that only joins the shared namespace (`benchJoin`).
import {
  createOutboxClient,
  type OutboxClient,
} from "../../packages/core/src/client/create-outbox-client.ts";
import { history } from "../support/recorded-run.ts";
import { bare, type Read, readerOnly } from "../support/stream-readers.ts";

export interface StreamPageRequest {
  readonly url: string;
  /** Messages in the thread before the run. */
  readonly messages: number;
  /**
   * `ours`: `thread.send` with the tab alone in its namespace; `oursShared`: with a second tab
   * open; `bare`: posting the body `thread.send` posts; `bareEmpty`: an empty history.
   */
  readonly reader: "ours" | "oursShared" | "bare" | "bareEmpty" | "reader";
  /** Events in the recording: what `thread.send` must have folded. */
  readonly events: number;
}

/** Namespace a second tab joins; `ours` uses one no other tab is in. */
export const SHARED_NAMESPACE = "bench-shared";
const ALONE_NAMESPACE = "bench-alone";

const clients = new Map<string, OutboxClient>();

async function client(url: string, namespace: string): Promise<OutboxClient> {
  let found = clients.get(namespace);
  if (!found) {
    found = createOutboxClient({ url, namespace, dbName: `bench-stream-${namespace}` });
    clients.set(namespace, found);
  }
  await found.start();
  return found;
}

let threads = 0;

/** The whole of `thread.send`, tab machinery included; the thread's history is loaded untimed. */
async function ours(request: StreamPageRequest, namespace: string): Promise<Read> {
  const outbox = await client(request.url, namespace);
  threads += 1;
  // The server reads the history's size from the thread id.
  const thread = outbox.thread(`hist-${request.messages}-${threads}`);
  await thread.hydrate();
  const before = thread.store.getState().messages.length;
  if (before !== request.messages) throw new Error(`hydrated ${before} of ${request.messages} messages`);
  const started = performance.now();
  await thread.send("go");
  const ms = performance.now() - started;
  const state = thread.store.getState();
  // The user message and the run's assistant and tool messages.
  if (state.run.name !== "finished" || state.messages.length <= before + 1) {
    throw new Error("thread.send did not fold the run");
  }
  return { count: request.events, ms };
}

async function read(request: StreamPageRequest): Promise<Read> {
  if (request.reader === "bare") {
    // The history and the new message, as the thread's request carries them.
    return bare(request.url, [...history(request.messages), { id: "m-go", role: "user", content: "go" }]);
  }
  if (request.reader === "bareEmpty") return bare(request.url);
  if (request.reader === "reader") return readerOnly(request.url);
  return ours(request, request.reader === "ours" ? ALONE_NAMESPACE : SHARED_NAMESPACE);
}

/** The second tab: a started client in the shared namespace, mirroring what the first streams. */
async function join(url: string): Promise<void> {
  await client(url, SHARED_NAMESPACE);
}

Object.assign(globalThis, { benchStream: read, benchJoin: join, benchReady: true });
