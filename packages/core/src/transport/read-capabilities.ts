import type { AgentCapabilities } from "../protocol/index";
import { isCommonCapabilities } from "./capabilities-check";
import { loadCapabilitiesValidator } from "./load-capabilities-validator";

/**
 * A capabilities document as the AG-UI schema parses it, without loading zod
 * for the documents servers of the recovery contract publish: those are checked
 * by hand (capabilities-check.ts); any other waits for the schema, loaded then.
 * Either way the verdict is the schema's. Rejects with `invalid_event` for a
 * document the schema refuses, and with `network` when the schema could not be
 * loaded (nothing was judged: read the capabilities again later).
 */
export async function readCapabilities(json: unknown): Promise<AgentCapabilities> {
  if (isCommonCapabilities(json)) return json;
  const validateCapabilities = await loadCapabilitiesValidator();
  return validateCapabilities(json);
}
