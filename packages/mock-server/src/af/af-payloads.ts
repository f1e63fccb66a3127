import { deployToolParameters } from "../agent/deploy-script";

/**
 * How Agent Framework's AG-UI server reads approval payloads, in its two
 * generations. Neither validates against the interrupt's schema; both read
 * what they know and ignore the rest.
 */

/** Legacy: `accepted`, with argument edits as flat keys next to it. */
export const legacyResponseSchema = {
  type: "object",
  properties: { accepted: { type: "boolean" }, ...deployToolParameters.properties },
  required: ["accepted"],
} as const;

/**
 * Lifecycle, as 1.7.0 serves it: `approved` first, `accepted` as an alias, each
 * argument by name for a single edit, `editedArgs` replacing them all; closed.
 */
export const lifecycleResponseSchema = {
  type: "object",
  properties: {
    approved: { type: "boolean" },
    accepted: { type: "boolean" },
    ...deployToolParameters.properties,
    editedArgs: deployToolParameters,
  },
  anyOf: [{ required: ["approved"] }, { required: ["accepted"] }],
  additionalProperties: false,
} as const;

/** What both generations store as the call's tool message when an approval is rejected. */
export const REJECTED_TOOL_RESULT = "Error: Tool call invocation was rejected by user.";

/** What 1.0.1 stores (and streams) for an approved tool it cannot call. */
export const FAILED_TOOL_RESULT = "Error: Function failed.";

export interface AfDecision {
  readonly approved: boolean;
  readonly args: Record<string, unknown>;
}

function record(payload: unknown): Record<string, unknown> {
  return typeof payload === "object" && payload !== null && !Array.isArray(payload)
    ? (payload as Record<string, unknown>)
    : {};
}

export function readLegacyPayload(payload: unknown, proposed: Readonly<Record<string, unknown>>): AfDecision {
  const fields = record(payload);
  const args: Record<string, unknown> = { ...proposed };
  for (const name of Object.keys(proposed)) {
    if (typeof fields[name] === "string") args[name] = fields[name];
  }
  return { approved: fields.accepted === true, args };
}

export function readLifecyclePayload(
  payload: unknown,
  proposed: Readonly<Record<string, unknown>>,
): AfDecision {
  const fields = record(payload);
  const approved = typeof fields.approved === "boolean" ? fields.approved : fields.accepted === true;
  const edited = fields.editedArgs;
  if (typeof edited === "object" && edited !== null && !Array.isArray(edited)) {
    return { approved, args: { ...(edited as Record<string, unknown>) } };
  }
  const args: Record<string, unknown> = { ...proposed };
  for (const name of Object.keys(proposed)) {
    if (typeof fields[name] === "string") args[name] = fields[name];
  }
  return { approved, args };
}
