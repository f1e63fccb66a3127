import { ErrorKind, isOutboxError } from "../errors/outbox-error";
import type { EntryError } from "../outbox/entry";

/**
 * A status or thread read that failed, classified by what it says. Never a
 * `DeliverySignal`: a hydration's RUN_ERROR is not the resume's outcome, so the
 * classifier never sees one; the delivery reads again or decides with the
 * evidence it holds.
 */
export interface ReadFailed {
  readonly type: "read-failed";
  /** What could not be read: the run's status, or the thread (a hydration). */
  readonly of: "status" | "thread";
  readonly error: EntryError;
  /**
   * The network, a cut read, or a busy server: reading again may succeed. Else the
   * server answered and refused to show it (a RUN_ERROR, a 4xx, an unreadable
   * stream), and reading again would be answered the same.
   */
  readonly transient: boolean;
}

const CUT: ReadonlySet<string> = new Set([ErrorKind.network, ErrorKind.streamEnded, ErrorKind.streamStalled]);
const BUSY: ReadonlySet<number> = new Set([408, 425, 429]);

/** What a read's rejection says. */
export function readFailureOf(of: ReadFailed["of"], error: unknown): ReadFailed {
  if (!isOutboxError(error)) {
    return {
      type: "read-failed",
      of,
      error: { kind: ErrorKind.network, message: "fetch failed" },
      transient: true,
    };
  }
  const status = error.status;
  const transient =
    CUT.has(error.kind) ||
    (error.kind === ErrorKind.http && status !== undefined && (status >= 500 || BUSY.has(status)));
  return {
    type: "read-failed",
    of,
    error: {
      kind: error.kind,
      message: error.message,
      ...(error.code === undefined ? {} : { code: error.code }),
      ...(status === undefined ? {} : { status }),
    },
    transient,
  };
}
