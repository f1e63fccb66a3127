// Page side of benchmark 2 (stream consumption in Chromium). Bundled by
// bench/support/browser-page.ts; the recording is served by the benchmark's own
// node:http server in network-sized writes.
import { history } from "../support/recorded-run.ts";
import { bare, ours, type Read, readerOnly } from "../support/stream-readers.ts";

export interface StreamPageRequest {
  readonly url: string;
  /** Messages in the thread before the run. */
  readonly messages: number;
  readonly reader: "ours" | "bare" | "reader";
}

async function read(request: StreamPageRequest): Promise<Read> {
  if (request.reader === "bare") return bare(request.url);
  if (request.reader === "reader") return readerOnly(request.url);
  return ours(request.url, history(request.messages));
}

Object.assign(globalThis, { benchStream: read, benchReady: true });
