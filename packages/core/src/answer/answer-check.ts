import { ErrorKind, OutboxError } from "../errors/outbox-error";

// Imported by both the loader and the chunk it loads, so neither imports the other.

/** One schema violation, located but never quoting the answer's content. */
export interface AnswerViolation {
  /** JSON pointer into the answer payload, e.g. `/editedArgs/target`. */
  readonly path: string;
  /** The JSON-Schema keyword that failed, e.g. `type`, `required`, `minLength`. */
  readonly keyword: string;
}

export type AnswerCheck =
  | { readonly valid: true }
  | { readonly valid: false; readonly violations: readonly AnswerViolation[] };

/** Checks an answer payload against a `responseSchema`; see `checkAnswer`. */
export type AnswerValidator = (
  payload: unknown,
  responseSchema: Readonly<Record<string, unknown>> | undefined,
) => AnswerCheck;

/** Error raised by `answer()` when the payload violates the schema; nothing was enqueued. */
export class InvalidAnswerError extends OutboxError {
  readonly violations: readonly AnswerViolation[];

  constructor(violations: readonly AnswerViolation[]) {
    const summary = violations.map((violation) => `${violation.path} (${violation.keyword})`).join(", ");
    super(ErrorKind.invalidAnswer, `The answer does not match the interrupt's responseSchema at ${summary}.`);
    this.violations = violations;
  }
}
