import type { EntryError } from "@agui-outbox/core";

/** Failures whose code or status came from the server; every other kind was decided on this device. */
const FROM_SERVER: ReadonlySet<string> = new Set(["run_error", "http", "unauthorized"]);

/**
 * The kept failure in words, saying who said it: "The server answered
 * APPROVAL_RESUME_EXPIRED." for the server's codes, "Details: …" for what this
 * client concluded itself (a retry budget, a stream that ended, storage).
 */
export function describeEntryError(error: EntryError): string {
  if (FROM_SERVER.has(error.kind) && (error.code || error.status !== undefined))
    return `The server answered ${error.code ?? `HTTP ${error.status}`}.`;
  return `Details: ${error.message}`;
}
