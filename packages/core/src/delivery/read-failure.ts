import { ErrorKind, isOutboxError } from "../errors/outbox-error";
import type { EntryError } from "../outbox/entry";

/** A failed status or thread read; never a `DeliverySignal` (a hydration's RUN_ERROR is no outcome). */
export interface ReadFailed {
  readonly type: "read-failed";
  /** What could not be read: the run's status, or the thread (a hydration). */
  readonly of: "status" | "thread";
  readonly error: EntryError;
  /** Reading again may succeed (network, cut read, busy server); else the server refused and would again. */
  readonly transient: boolean;
}

const CUT: ReadonlySet<string> = new Set([ErrorKind.network, ErrorKind.streamEnded, ErrorKind.streamStalled]);
const BUSY: ReadonlySet<number> = new Set([408, 425, 429]);

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
