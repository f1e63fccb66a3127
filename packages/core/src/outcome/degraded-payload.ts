import { ErrorKind, OutboxError } from "../errors/outbox-error";
import type { Decision } from "../outbox/entry";
import type { ServerKind } from "./delivery-signal";

export type ResumeResolution =
  | { readonly status: "resolved"; readonly payload: Readonly<Record<string, unknown>> }
  | { readonly status: "cancelled" };

/** `{approved, editedArgs?}`, plus `reason` only where the schema declares it (a closed one would refuse it). */
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

/** Whether the `responseSchema` declares `editedArgs` at its top level, as Agent Framework's do. */
export function declaresEditedArgs(responseSchema: unknown): boolean {
  return declaresProperty(responseSchema, "editedArgs");
}

function declaresProperty(responseSchema: unknown, name: string): boolean {
  if (!isRecord(responseSchema)) return false;
  const properties = responseSchema.properties;
  return isRecord(properties) && Object.hasOwn(properties, name);
}

function reasonField(reason: string | undefined, responseSchema: unknown): { reason?: string } {
  return reason !== undefined && declaresProperty(responseSchema, "reason") ? { reason } : {};
}

// `approved` and `accepted` both (Agent Framework generations read different ones), unless a
// closed schema declares only some: 1.0 declares `accepted` alone.
function decisionFlags(responseSchema: unknown, value: boolean): Record<string, boolean> {
  const schema = isRecord(responseSchema) ? responseSchema : {};
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const declared = RESERVED_KEYS.filter((key) => Object.hasOwn(properties, key));
  const keys = schema.additionalProperties === false && declared.length > 0 ? declared : RESERVED_KEYS;
  return Object.fromEntries(keys.map((key) => [key, value]));
}

/**
 * The payload without the contract: the flags, and edits nested as `editedArgs` where the schema
 * declares it, else flat beside them.
 * @throws OutboxError `invalid_answer` when flat edits would overwrite a flag (before enqueueing).
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
      // Flat, a declared `reason` is the tool's own argument: the comment stays on the entry.
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

export function buildResumeResolution(
  decision: Decision,
  options: { readonly serverKind: ServerKind; readonly responseSchema?: unknown },
): ResumeResolution {
  return options.serverKind === "contract"
    ? buildContractResolution(decision, options.responseSchema)
    : buildDegradedResolution(decision, options.responseSchema);
}
