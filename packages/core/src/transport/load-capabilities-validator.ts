import { ErrorKind, OutboxError } from "../errors/outbox-error";
import type { AgentCapabilities } from "../protocol/index";

/** `AgentCapabilitiesSchema`'s check, as validate-capabilities.ts runs it. */
export type CapabilitiesValidator = (json: unknown) => AgentCapabilities;

let loading: Promise<CapabilitiesValidator> | undefined;

/**
 * The AG-UI capabilities schema, loaded the first time a document needs it: the
 * documents servers of the recovery contract publish are checked by hand
 * (capabilities-check.ts), so the schema and zod are a chunk of the app's build
 * that most pages never fetch. A failed load is not cached: the next call tries
 * again. It fails as `network`, as an unreachable server would: nothing was
 * judged, and the capabilities are read again after the usual backoff.
 */
export function loadCapabilitiesValidator(): Promise<CapabilitiesValidator> {
  loading ??= import("./validate-capabilities").then(
    (module) => module.validateCapabilities,
    (error: unknown) => {
      loading = undefined;
      throw new OutboxError(
        ErrorKind.network,
        "The AG-UI capabilities schema could not be loaded, so the capabilities were not read.",
        { cause: error },
      );
    },
  );
  return loading;
}
