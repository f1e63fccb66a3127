import { ErrorKind, OutboxError } from "../errors/outbox-error";

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

let loading: Promise<AnswerValidator> | undefined;

/**
 * The JSON-Schema validator, loaded on first use: most questions carry no
 * `responseSchema`, and an app that never meets one never downloads the validator
 * (a separate chunk in the app's build). Call it early (when a question with a
 * schema appears) so the code is there before the person answers, even offline.
 * A failed load is not cached: the next call tries again.
 */
export function loadAnswerValidator(): Promise<AnswerValidator> {
  loading ??= import("./validate-answer").then(
    (module) => module.checkAnswer,
    (error: unknown) => {
      loading = undefined;
      throw new OutboxError(
        ErrorKind.validatorUnavailable,
        "The JSON-Schema validator could not be loaded; nothing was enqueued. Try again when online.",
        { cause: error },
      );
    },
  );
  return loading;
}
