import { EventSchema } from "@agui-outbox/core/protocol";
import { createParser } from "eventsource-parser";

export interface SseFrame {
  readonly id: string | undefined;
  readonly event: Record<string, unknown> & { readonly type: string };
}

/**
 * Reads an SSE response incrementally with a spec-exact parser, validating
 * every event against the AG-UI schema, so tests can wait for a frame while
 * the run is still going.
 */
export class SseReader {
  readonly frames: SseFrame[] = [];
  readonly comments: string[] = [];
  /** Everything received, for framing checks (line endings). */
  raw = "";
  /** "end": the server closed the body normally; "error": the connection was cut. */
  readonly done: Promise<"end" | "error">;
  readonly #waiters = new Set<() => void>();
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  #finished = false;

  constructor(response: Response) {
    if (response.body === null) throw new Error("response has no body");
    this.#reader = response.body.getReader();
    this.done = this.#pump();
  }

  get events(): SseFrame["event"][] {
    return this.frames.map((frame) => frame.event);
  }

  get types(): string[] {
    return this.frames.map((frame) => frame.event.type);
  }

  /** Resolves once `predicate` holds; rejects if the stream ends first. */
  waitFor(predicate: (reader: SseReader) => boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (predicate(this)) {
          this.#waiters.delete(check);
          resolve();
        } else if (this.#finished) {
          this.#waiters.delete(check);
          reject(new Error(`stream ended before the condition held; got ${this.types.join(", ")}`));
        }
      };
      this.#waiters.add(check);
      check();
    });
  }

  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }

  async #pump(): Promise<"end" | "error"> {
    const decoder = new TextDecoder();
    const parser = createParser({
      onEvent: (message) => {
        const json: unknown = JSON.parse(message.data);
        const parsed = EventSchema.safeParse(json);
        if (!parsed.success) throw new Error(`invalid AG-UI event: ${message.data}`);
        this.frames.push({ id: message.id, event: json as SseFrame["event"] });
      },
      onComment: (comment) => this.comments.push(comment.trim()),
    });
    let ending: "end" | "error" = "end";
    try {
      for (;;) {
        const { done, value } = await this.#reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        this.raw += text;
        parser.feed(text);
        this.#notify();
      }
    } catch {
      ending = "error";
    }
    this.#finished = true;
    this.#notify();
    return ending;
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}
