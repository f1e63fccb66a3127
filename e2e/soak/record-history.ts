// Records a history (history.ts) from a browser context as it happens: every committed
// outbox write, from IndexedDB itself (its transaction's `complete` event, so an
// aborted write is never counted), every page load, and every request of each loop.
// Nothing is polled: the page reports each write through a binding, and requests
// come from the context's own events.
import type { BrowserContext, Page, Request } from "@playwright/test";
import type { MockControl } from "../support/mock-control";
import {
  type EntryStep,
  FINAL_STATES,
  type HistoryStep,
  type Loop,
  type RequestStep,
  type ServerTruth,
} from "./history";

const BINDING = "__aguiHistory";
const DB_NAME = "agui-outbox-demo";

type Reported = Omit<EntryStep, "tab"> | { readonly kind: "load" };

/** Runs in the page (it must stand alone): watches every write of the outbox's entries. */
function watchOutboxWrites(binding: string): void {
  const report = (step: unknown): void => {
    const send = (globalThis as unknown as Record<string, ((step: unknown) => void) | undefined>)[binding];
    send?.(step);
  };
  const project = (value: Record<string, unknown>) => {
    const error = value.lastError as { kind?: string; code?: string } | null | undefined;
    const batch = value.batch as { sendsWith?: string } | undefined;
    return {
      kind: "entry" as const,
      key: String(value.key),
      threadId: String(value.threadId),
      interruptId: String(value.interruptId),
      ...(typeof value.toolCallId === "string" ? { toolCallId: value.toolCallId } : {}),
      ...(batch?.sendsWith === undefined ? {} : { sendsWith: batch.sendsWith }),
      decision: String((value.decision as { kind?: string } | undefined)?.kind),
      state: String(value.state),
      attempts: Number(value.attempts),
      lastError: error ? `${error.kind ?? "?"} ${error.code ?? ""}`.trim() : null,
    };
  };
  for (const method of ["put", "add"] as const) {
    const original = IDBObjectStore.prototype[method];
    IDBObjectStore.prototype[method] = function (this: IDBObjectStore, ...args: [unknown, IDBValidKey?]) {
      const request = original.apply(this, args);
      if (this.name === "entries") {
        const step = project(args[0] as Record<string, unknown>);
        this.transaction.addEventListener("complete", () => report(step));
      }
      return request;
    };
  }
  // The entries on disk, projected the same way, for the end of the history.
  (globalThis as unknown as Record<string, unknown>)[`${binding}Read`] = async (name: string) => {
    if (!(await indexedDB.databases()).some((db) => db.name === name)) return [];
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      if (!db.objectStoreNames.contains("entries")) return [];
      const all = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
        const request = db.transaction("entries", "readonly").objectStore("entries").getAll();
        request.onsuccess = () => resolve(request.result as Record<string, unknown>[]);
        request.onerror = () => reject(request.error);
      });
      return all.map(project);
    } finally {
      db.close();
    }
  };
  report({ kind: "load" });
}

/** Which loop a request belongs to, or undefined for anything else (assets, test controls). */
function loopOf(request: Request): { loop: Loop; key?: string } | undefined {
  const path = new URL(request.url()).pathname;
  if (path === "/agent/capabilities") return { loop: "capabilities" };
  if (/^\/agent\/runs\/[^/]+\/events$/.test(path)) return { loop: "reattach" };
  if (/^\/agent\/runs\/[^/]+$/.test(path)) return { loop: "status" };
  if (path !== "/agent" || request.method() !== "POST") return undefined;
  const key = request.headers()["idempotency-key"];
  if (key !== undefined) return { loop: "resume", key };
  // A hydration is a POST without messages and without a resume (DESIGN.md, routes).
  const body = request.postDataJSON() as { messages?: unknown[]; resume?: unknown } | null;
  const hydrate = body !== null && body.resume === undefined && body.messages?.length === 0;
  return { loop: hydrate ? "hydrate" : "run" };
}

export class HistoryRecorder {
  readonly steps: HistoryStep[] = [];
  readonly #pages: Page[] = [];
  readonly #requests = new WeakMap<Request, RequestStep>();
  readonly #waiters = new Set<() => void>();
  readonly #bodies: Promise<void>[] = [];

  /** Starts recording; call before the context opens its first page. */
  static async attach(context: BrowserContext): Promise<HistoryRecorder> {
    const recorder = new HistoryRecorder();
    // Pages opened before recording started count too, in the order they were opened.
    recorder.#pages.push(...context.pages());
    context.on("page", (page) => recorder.#pages.push(page));
    context.on("request", (request) => recorder.#onRequest(request));
    context.on("response", (response) => {
      const step = recorder.#requests.get(response.request());
      if (step !== undefined) step.answered = true;
    });
    context.on("requestfinished", (request) => {
      const step = recorder.#requests.get(request);
      if (step === undefined || step.loop === "capabilities") return;
      step.finishedAt = recorder.steps.length;
      const read = async () => {
        const body = await (await request.response())?.text();
        if (body !== undefined) step.results = toolResultsIn(body);
      };
      // A body that cannot be read (a dropped stream) carries no results: the check then claims less, never more.
      recorder.#bodies.push(read().catch(() => undefined));
    });
    await context.exposeBinding(BINDING, ({ page }, step: Reported) => {
      recorder.steps.push({ ...step, tab: recorder.#tabOf(page) } as HistoryStep);
      for (const wake of recorder.#waiters) wake();
    });
    await context.addInitScript(watchOutboxWrites, BINDING);
    return recorder;
  }

  /** Waits until every finished response's body has been read for evidence. */
  async flush(): Promise<void> {
    await Promise.all(this.#bodies);
  }

  /** The thread's answers, as their last recorded write left them. */
  latest(threadId: string): EntryStep[] {
    const byKey = new Map<string, EntryStep>();
    for (const step of this.steps)
      if (step.kind === "entry" && step.threadId === threadId) byKey.set(step.key, step);
    return [...byKey.values()];
  }

  /** Waits, write by write, until every answer of the thread has a verdict (or `timeoutMs`). */
  settled(threadId: string, timeoutMs: number): Promise<void> {
    return this.until(() => {
      const entries = this.latest(threadId);
      return entries.length > 0 && entries.every((entry) => FINAL_STATES.has(entry.state));
    }, timeoutMs);
  }

  /** Resolves once `done()` holds, checked after every recorded write, or after `timeoutMs`. */
  until(done: () => boolean, timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve();
      };
      const check = () => {
        if (done()) finish();
      };
      const timer = setTimeout(finish, timeoutMs);
      this.#waiters.add(check);
      check();
    });
  }

  #tabOf(page: Page | undefined): number {
    return page === undefined ? -1 : this.#pages.indexOf(page);
  }

  #onRequest(request: Request): void {
    const loop = loopOf(request);
    if (loop === undefined) return;
    let page: Page | undefined;
    try {
      page = request.frame().page();
    } catch {
      // A worker's request has no frame.
    }
    const step: RequestStep = { kind: "request", tab: this.#tabOf(page), ...loop, answered: false };
    this.#requests.set(request, step);
    this.steps.push(step);
  }

  /**
   * Ends the history with what is on disk: a write whose report was cut off by a
   * closing page still counts, as the entry `page` reads from IndexedDB.
   */
  async closeWithDisk(page: Page): Promise<void> {
    await this.flush();
    const onDisk = await page.evaluate(
      ([binding, name]) =>
        (
          (globalThis as unknown as Record<string, (name: string) => Promise<Omit<EntryStep, "tab">[]>>)[
            `${binding}Read`
          ] as (name: string) => Promise<Omit<EntryStep, "tab">[]>
        )(name),
      [BINDING, DB_NAME] as const,
    );
    const tab = this.#tabOf(page);
    for (const entry of onDisk) {
      const last = this.steps.findLast((step) => step.kind === "entry" && step.key === entry.key);
      if (last?.kind !== "entry" || last.state !== entry.state || last.attempts !== entry.attempts)
        this.steps.push({ ...entry, tab });
    }
  }
}

// Texts the servers write as tool messages that are not a tool's result (an error before
// or while it ran, a rejection): packages/core/src/outcome/tool-evidence.ts holds them all.
const NOT_A_RESULT = /^(Error\b|The tool call was denied|User rejected)/;

/** The tool calls a response's events show a result for. */
export function toolResultsIn(body: string): string[] {
  const calls = new Set<string>();
  for (const line of body.split(/\r\n|\r|\n/)) {
    if (!line.startsWith("data:")) continue;
    let event: { type?: string; toolCallId?: string; content?: unknown; messages?: unknown[] };
    try {
      event = JSON.parse(line.slice(5));
    } catch {
      continue;
    }
    const messages = event.type === "MESSAGES_SNAPSHOT" ? (event.messages ?? []) : [event];
    for (const item of messages as {
      type?: string;
      role?: string;
      toolCallId?: string;
      content?: unknown;
    }[]) {
      const isResult = item.type === "TOOL_CALL_RESULT" || item.role === "tool";
      const content = typeof item.content === "string" ? item.content : "";
      if (isResult && item.toolCallId !== undefined && !NOT_A_RESULT.test(content.trim()))
        calls.add(item.toolCallId);
    }
  }
  return [...calls];
}

/** What the server holds for a thread, read once its faults stopped. */
export async function readServerTruth(
  mock: MockControl,
  threadId: string,
  contract: boolean,
): Promise<ServerTruth> {
  return {
    contract,
    receivedKeys: await mock.resumeKeys(threadId),
    occurrences: await mock.occurrences(threadId),
    executions: await mock.ledger(threadId),
  };
}
