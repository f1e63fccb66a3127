import type { AgUiEvent, RunAgentInput } from "@agui-outbox/core/protocol";
import type { Occurrence } from "@agui-outbox/server";

/**
 * Where a published interrupt keeps the upstream's own `responseSchema`, when
 * the gateway shows its clients another one (an `x-` key: a compatible extension).
 */
export const UPSTREAM_SCHEMA_KEY = "x-upstream-response-schema";

type Schema = Record<string, unknown>;
type Interrupt = { responseSchema?: Schema; metadata?: Record<string, unknown> } & Record<string, unknown>;

/** The flags servers read a decision from; the contract's is `approved`. */
const FLAGS = ["approved", "accepted"] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const propertiesOf = (schema: Schema) => (isObject(schema.properties) ? schema.properties : {});

/**
 * A closed schema (Agent Framework 1.0.1: `accepted` alone, `additionalProperties:
 * false`) refuses the contract's `{approved, editedArgs}`. Clients get it with the
 * contract's fields declared beside the upstream's, no flag required on its own;
 * an open schema already takes them and is shown as it is.
 */
function contractSchema(schema: Schema): Schema {
  const required = Array.isArray(schema.required) ? schema.required : [];
  return {
    ...schema,
    properties: {
      ...propertiesOf(schema),
      approved: { type: "boolean" },
      editedArgs: { type: "object" },
    },
    required: required.filter((name) => !(FLAGS as readonly unknown[]).includes(name)),
  };
}

/** A `RUN_FINISHED` as the gateway's clients see it: each closed-schema interrupt with the contract's view. */
export function publishedInterrupts(event: AgUiEvent): AgUiEvent {
  const outcome = (event as { outcome?: { type?: string; interrupts?: Interrupt[] } }).outcome;
  if (event.type !== "RUN_FINISHED" || outcome?.type !== "interrupt" || outcome.interrupts === undefined)
    return event;
  const interrupts = outcome.interrupts.map((interrupt) => {
    const schema = interrupt.responseSchema;
    if (schema === undefined || schema.additionalProperties !== false) return interrupt;
    return {
      ...interrupt,
      responseSchema: contractSchema(schema),
      metadata: { ...interrupt.metadata, [UPSTREAM_SCHEMA_KEY]: schema },
    };
  });
  return { ...event, outcome: { ...outcome, interrupts } } as AgUiEvent;
}

/**
 * The answer in the upstream's closed schema: its own decision flags set from
 * the contract's, edits under the names it declares, nothing it does not.
 */
export function upstreamPayload(schema: Schema, payload: unknown): Record<string, unknown> {
  const given = isObject(payload) ? payload : {};
  const declared = propertiesOf(schema);
  const approved = given.approved === true || given.accepted === true;
  const edits = isObject(given.editedArgs) ? given.editedArgs : {};
  const answer: Record<string, unknown> = {};
  for (const [name, value] of Object.entries({ ...given, ...edits })) {
    if (Object.hasOwn(declared, name)) answer[name] = value;
  }
  for (const flag of FLAGS) if (Object.hasOwn(declared, flag)) answer[flag] = approved;
  return answer;
}

/** The resume as the upstream takes it: each entry's payload in its interrupt's own schema. */
export function upstreamResume(input: RunAgentInput, occurrences: readonly Occurrence[]): RunAgentInput {
  if (input.resume === undefined) return input;
  const resume = input.resume.map((entry) => {
    const interrupt = occurrences.find((one) => one.interruptId === entry.interruptId)?.interrupt as
      | Interrupt
      | undefined;
    const schema = interrupt?.metadata?.[UPSTREAM_SCHEMA_KEY];
    if (!isObject(schema) || entry.status !== "resolved") return entry;
    return { ...entry, payload: upstreamPayload(schema, entry.payload) };
  });
  return { ...input, resume };
}
