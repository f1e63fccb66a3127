import { ErrorKind, OutboxError } from "../errors/outbox-error";
import type { AgentCapabilities } from "../protocol/index";

/** `AgentCapabilitiesSchema`'s check, as validate-capabilities.ts runs it. */
export type CapabilitiesValidator = (json: unknown) => AgentCapabilities;

let loading: Promise<CapabilitiesValidator> | undefined;

/**
 * The capabilities schema, loaded the first time a document needs it (contract servers' are checked
 * by hand). A failed load is not cached and fails as `network`: nothing was judged.
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
