import { ErrorKind, OutboxError } from "../errors/outbox-error";

/** What sender.ts exports: the classes that send, built by the engine once loaded. */
export type SenderModule = typeof import("./sender");

let loading: Promise<SenderModule> | undefined;

/**
 * The sending half of the delivery, loaded when this tab becomes the one that
 * sends (the tab asks for it as soon as it holds the lock, while storage opens).
 * A page that only takes answers, or a tab that hands them to another, never
 * downloads it. An answer is durable before it is needed: while it cannot be
 * fetched (offline when a tab takes over, a deploy that removed the chunk), the
 * answers wait as they are, unsent and unjudged. A failed load is not cached: the
 * next call tries again.
 */
export function loadSender(): Promise<SenderModule> {
  loading ??= import("./sender").catch((error: unknown) => {
    loading = undefined;
    throw new OutboxError(
      ErrorKind.senderUnavailable,
      "The delivery code could not be loaded; the answers are kept and sent once it loads.",
      { cause: error },
    );
  });
  return loading;
}
