import type { Message } from "../protocol";

/**
 * Where each message id sits in one message list, so a delta finds its message
 * without a scan. The index describes one list (`#of`); a draft that copies the
 * list moves the index onto the copy, and appends are added as they happen. For
 * any other list it is rebuilt on the next lookup (a snapshot, an app's update).
 * With repeated ids (a server's bug), lookups land on the newest message when it
 * is the last one, else on the first with that id.
 */
export class MessageIndex {
  #of: readonly Message[] | undefined;
  readonly #positions = new Map<string, number>();

  /** Position of `id` in `messages`, or -1. The newest message is tried first: deltas stream into it. */
  find(messages: readonly Message[], id: string): number {
    const last = messages.length - 1;
    if (last >= 0 && (messages[last] as Message).id === id) return last;
    if (this.#of !== messages) this.#rebuild(messages);
    return this.#positions.get(id) ?? -1;
  }

  /** `copy` is `original` copied: the positions stay right. */
  follow(original: readonly Message[], copy: readonly Message[]): void {
    if (this.#of === original) this.#of = copy;
  }

  /** `messages[position]` was just appended. */
  added(messages: readonly Message[], id: string, position: number): void {
    if (this.#of === messages && !this.#positions.has(id)) this.#positions.set(id, position);
  }

  #rebuild(messages: readonly Message[]): void {
    this.#positions.clear();
    for (let position = 0; position < messages.length; position++) {
      const id = (messages[position] as Message).id;
      if (!this.#positions.has(id)) this.#positions.set(id, position);
    }
    this.#of = messages;
  }
}
