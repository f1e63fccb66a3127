import { ErrorKind, isOutboxError, OutboxError } from "../errors/outbox-error";

/** What sender.ts exports: the factory of the parts that send, called by the engine once loaded. */
export type SenderModule = typeof import("./sender");

/** The sending half's chunk (`OutboxDeps.loadSender`'s default): a tab that never sends never loads it. */
export const importSender = (): Promise<SenderModule> => import("./sender");

/** Loads the sending code; fails as `sender_unavailable` (answers wait on disk), never cached. */
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
