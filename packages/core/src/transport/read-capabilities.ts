import type { AgentCapabilities } from "../protocol/index";
import { isCommonCapabilities } from "./capabilities-check";
import { loadCapabilitiesValidator } from "./load-capabilities-validator";

/**
 * A capabilities document as the AG-UI schema parses it, zod loaded only for documents the hand
 * check leaves. Rejects `invalid_event` when refused, `network` when the schema cannot load.
 */
export async function readCapabilities(json: unknown): Promise<AgentCapabilities> {
  if (isCommonCapabilities(json)) return json;
  const validateCapabilities = await loadCapabilitiesValidator();
  return validateCapabilities(json);
}
