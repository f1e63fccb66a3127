import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { AgentCapabilitiesSchema } from "../protocol/ag-ui-capabilities-mini";
import type { AgentCapabilities } from "../protocol/index";

/** Validates with `AgentCapabilitiesSchema`; loaded on demand (load-capabilities-validator.ts). */
export function validateCapabilities(json: unknown): AgentCapabilities {
  const parsed = AgentCapabilitiesSchema.safeParse(json);
  if (!parsed.success) {
    throw new OutboxError(ErrorKind.invalidEvent, "The capabilities document is not valid AG-UI.", {
      cause: parsed.error,
    });
  }
  return parsed.data;
}
