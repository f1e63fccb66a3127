import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { EventSchema } from "../protocol/ag-ui-mini";
import type { AgUiEvent, StreamCursor } from "../protocol/index";
import { EventType } from "../protocol/index";
import { isJsonObject } from "./simple-event-check";
import { where } from "./where";

const knownEventTypes: ReadonlySet<string> = new Set(Object.values(EventType));

// Type names come from the server; anything that does not look like one is not
// echoed, so a payload that landed in `type` never reaches a message or a log.
const printableTypeName = /^[A-Z][A-Z0-9_]{0,63}$/;
const printableFieldName = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Validates with the AG-UI event schema; throws `invalid_event` naming the type and fields. */
export function validateEvent(json: unknown, cursor: StreamCursor | undefined): AgUiEvent {
  const result = EventSchema.safeParse(json);
  if (result.success) return result.data;
  const type = typeOf(json);
  if (type === undefined) {
    throw new OutboxError(ErrorKind.invalidEvent, `Event data has no string "type"${where(cursor)}`);
  }
  const name = printableTypeName.test(type) ? type : "(unprintable)";
  if (!knownEventTypes.has(type)) {
    throw new OutboxError(ErrorKind.invalidEvent, `Unknown AG-UI event type ${name}${where(cursor)}`);
  }
  const fields = [
    ...new Set(
      result.error.issues.map((issue) => {
        const top = issue.path[0];
        return typeof top === "string" && printableFieldName.test(top) ? top : "(event)";
      }),
    ),
  ];
  throw new OutboxError(
    ErrorKind.invalidEvent,
    `${name} event does not match the AG-UI schema (fields: ${fields.join(", ")})${where(cursor)}`,
  );
}

function typeOf(value: unknown): string | undefined {
  const type = isJsonObject(value) ? value.type : undefined;
  return typeof type === "string" ? type : undefined;
}
