import { ErrorKind, OutboxError } from "../errors/outbox-error";
import type { Decision } from "../outbox/entry";
import type { ServerKind } from "./delivery-signal";

/**
 * The part of a `ResumeEntry` a decision determines. A cancellation carries no
 * payload: AG-UI says so with `status: "cancelled"`.
 */
export type ResumeResolution =
  | { readonly status: "resolved"; readonly payload: Readonly<Record<string, unknown>> }
  | { readonly status: "cancelled" };

/**
 * The payload for a server with the recovery contract: `{approved, editedArgs?}`,
 * plus the reject `reason` when the person gave one and the `responseSchema`
 * declares `reason` (elsewhere the reason stays with the entry only: a closed
 * schema would refuse a valid answer for carrying it).
 */
export function buildContractResolution(decision: Decision, responseSchema?: unknown): ResumeResolution {
  switch (decision.kind) {
    case "approve":
      return {
        status: "resolved",
        payload: {
          approved: true,
          ...(decision.editedArgs === undefined ? {} : { editedArgs: decision.editedArgs }),
          ...reasonField(decision.reason, responseSchema),
        },
      };
    case "reject":
      return {
        status: "resolved",
        payload: { approved: false, ...reasonField(decision.reason, responseSchema) },
      };
    case "cancel":
      return { status: "cancelled" };
  }
}

const RESERVED_KEYS: readonly string[] = ["approved", "accepted"];

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Whether the interrupt's `responseSchema` declares an `editedArgs` property at
 * its top level. Only top-level `properties` count: that is where Agent
 * Framework's approval schemas put it.
 */
export function declaresEditedArgs(responseSchema: unknown): boolean {
  return declaresProperty(responseSchema, "editedArgs");
}

function declaresProperty(responseSchema: unknown, name: string): boolean {
  if (!isRecord(responseSchema)) return false;
  const properties = responseSchema.properties;
  return isRecord(properties) && Object.hasOwn(properties, name);
}

/** `{reason}` when there is one and the schema has a place for it, else nothing. */
function reasonField(reason: string | undefined, responseSchema: unknown): { reason?: string } {
  return reason !== undefined && declaresProperty(responseSchema, "reason") ? { reason } : {};
}

/**
 * The decision flags for a server without the contract: `approved` and `accepted`
 * both, because the two generations of Agent Framework read different ones —
 * unless the schema is closed (`additionalProperties: false`) and declares only
 * some of them. Agent Framework 1.0 declares `accepted` alone: an answer carrying
 * `approved` as well would break the very schema the server published.
 */
function decisionFlags(responseSchema: unknown, value: boolean): Record<string, boolean> {
  const schema = isRecord(responseSchema) ? responseSchema : {};
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const declared = RESERVED_KEYS.filter((key) => Object.hasOwn(properties, key));
  const keys = schema.additionalProperties === false && declared.length > 0 ? declared : RESERVED_KEYS;
  return Object.fromEntries(keys.map((key) => [key, value]));
}

/**
 * The payload for a server without the contract (DESIGN.md, "Servers without
 * the contract"): the decision flags above; edits nested as `editedArgs` only when
 * the schema declares it, otherwise spread as flat keys next to the flags.
 *
 * @throws OutboxError `invalid_answer` when flat edits would overwrite `approved`
 *   or `accepted`: the server could not tell the decision from the edit. Thrown
 *   before anything is enqueued, so nothing is lost.
 */
export function buildDegradedResolution(decision: Decision, responseSchema: unknown): ResumeResolution {
  switch (decision.kind) {
    case "approve": {
      const flags = decisionFlags(responseSchema, true);
      const withReason = { ...flags, ...reasonField(decision.reason, responseSchema) };
      const edits = decision.editedArgs;
      if (edits === undefined) return { status: "resolved", payload: withReason };
      if (declaresEditedArgs(responseSchema))
        return { status: "resolved", payload: { ...withReason, editedArgs: edits } };
      // Flat edits: a `reason` the schema declares is then one of the tool's own
      // arguments, so the person's comment stays with the entry only.
      if (RESERVED_KEYS.some((key) => Object.hasOwn(edits, key))) {
        throw new OutboxError(
          ErrorKind.invalidAnswer,
          "Edited arguments named `approved` or `accepted` cannot be sent flat to a server without the recovery contract.",
        );
      }
      return { status: "resolved", payload: { ...edits, ...flags } };
    }
    case "reject":
      return {
        status: "resolved",
        payload: {
          ...decisionFlags(responseSchema, false),
          ...reasonField(decision.reason, responseSchema),
        },
      };
    case "cancel":
      return { status: "cancelled" };
  }
}

/** Picks the payload rules for the server generation. */
export function buildResumeResolution(
  decision: Decision,
  options: { readonly serverKind: ServerKind; readonly responseSchema?: unknown },
): ResumeResolution {
  return options.serverKind === "contract"
    ? buildContractResolution(decision, options.responseSchema)
    : buildDegradedResolution(decision, options.responseSchema);
}
