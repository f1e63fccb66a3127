import { ErrorKind, OutboxError } from "../errors/outbox-error";
import type { AnswerValidator } from "./answer-check";

let loading: Promise<AnswerValidator> | undefined;

/**
 * The JSON-Schema validator, loaded on first use (its own chunk): most questions carry no schema.
 * Call it early so it is there before the person answers, even offline. A failed load is not cached.
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
