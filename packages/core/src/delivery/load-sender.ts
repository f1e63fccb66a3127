import { ErrorKind, isOutboxError, OutboxError } from "../errors/outbox-error";

/** What sender.ts exports: the factory of the parts that send, called by the engine once loaded. */
export type SenderModule = typeof import("./sender");

/**
 * The sending half of the delivery, a chunk of its own in the app's build: the
 * default of `OutboxDeps.loadSender`. Loaded by the tab that becomes the one that
 * sends (it asks as soon as it holds the lock, while storage opens); a page that
 * only takes answers, or a tab that hands them to another, never downloads it.
 */
export const importSender = (): Promise<SenderModule> => import("./sender");

/**
 * Loads the sending code. Its failure is a `sender_unavailable` error: the
 * answers are durable before it is needed and wait as they are, unsent and
 * unjudged, while it cannot be fetched (offline when a tab takes over, a deploy
 * that removed the chunk). Nothing is cached here: the next call tries again.
 */
export async function loadSender(load: () => Promise<SenderModule>): Promise<SenderModule> {
  try {
    return await load();
  } catch (error) {
    if (isOutboxError(error) && error.kind === ErrorKind.senderUnavailable) throw error;
    throw new OutboxError(
      ErrorKind.senderUnavailable,
      "The delivery code could not be loaded; the answers are kept and sent once it loads.",
      { cause: error },
    );
  }
}
