// The mock server's test controls (chaos, mode, ledger, occurrences, reset), reached
// over HTTP from the spec itself, so a scenario never depends on the demo's panel.

/** A fault as `POST /__chaos` takes it (see packages/mock-server/README.md). */
export interface Fault {
  readonly point:
    | "before-response"
    | "before-claim"
    | "after-claim"
    | "mid-tool"
    | "after-tool"
    | "mid-stream"
    | "background-submit";
  readonly action: "status" | "crash" | "fail" | "drop" | "delay";
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly afterEvents?: number;
  readonly delayMs?: number;
  readonly times?: number;
  readonly threadId?: string;
}

export interface Execution {
  readonly threadId: string;
  readonly toolCallId: string;
  readonly name: string;
  readonly args: unknown;
}

export interface Occurrence {
  readonly threadId: string;
  readonly interruptId: string;
  readonly state: string;
}

export type MockMode = "fixed" | "af-legacy" | "af-lifecycle";

async function json<T>(response: Response, what: string): Promise<T> {
  if (!response.ok) throw new Error(`${what} answered HTTP ${response.status}`);
  return (await response.json()) as T;
}

/** Reads and drives one mock server. A `crash` restart makes it briefly unreachable: reads retry. */
export class MockControl {
  readonly url: string;

  constructor(url: string) {
    this.url = url;
  }

  async #fetch(path: string, init?: RequestInit): Promise<Response> {
    let lastError: unknown;
    // The supervisor restarts a crashed server within a second or two.
    for (let attempt = 0; attempt < 50; attempt += 1) {
      try {
        return await fetch(`${this.url}${path}`, init);
      } catch (error) {
        lastError = error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw lastError;
  }

  async reset(): Promise<void> {
    await json(await this.#fetch("/__reset", { method: "POST" }), "/__reset");
  }

  async addFaults(...faults: Fault[]): Promise<void> {
    await json(
      await this.#fetch("/__chaos", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ faults }),
      }),
      "/__chaos",
    );
  }

  async pendingFaults(): Promise<Fault[]> {
    return (await json<{ faults: Fault[] }>(await this.#fetch("/__chaos"), "/__chaos")).faults;
  }

  async setMode(mode: MockMode): Promise<void> {
    await json(
      await this.#fetch("/__mode", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ mode }),
      }),
      "/__mode",
    );
  }

  async mode(): Promise<MockMode> {
    return (await json<{ mode: MockMode }>(await this.#fetch("/__mode"), "/__mode")).mode;
  }

  async ledger(threadId: string): Promise<Execution[]> {
    const path = `/__ledger?threadId=${encodeURIComponent(threadId)}`;
    return (await json<{ executions: Execution[] }>(await this.#fetch(path), "/__ledger")).executions;
  }

  /** The Idempotency-Keys of the resumes that reached the server for this thread, in order. */
  async resumeKeys(threadId: string): Promise<string[]> {
    return (await this.resumes(threadId)).map((resume) => resume.key);
  }

  /** The resumes that reached the server for this thread, in order, with when each arrived there. */
  async resumes(threadId: string): Promise<Array<{ key: string; at: number }>> {
    const path = `/__resumes?threadId=${encodeURIComponent(threadId)}`;
    return (
      await json<{ resumes: Array<{ key: string; at: number }> }>(await this.#fetch(path), "/__resumes")
    ).resumes;
  }

  async occurrences(threadId: string): Promise<Occurrence[]> {
    const path = `/__occurrences?threadId=${encodeURIComponent(threadId)}`;
    return (await json<{ occurrences: Occurrence[] }>(await this.#fetch(path), "/__occurrences")).occurrences;
  }
}
