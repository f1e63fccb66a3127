import { ErrorKind, OutboxError } from "../errors/outbox-error";
import type { AnswerValidator } from "./answer-check";

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
