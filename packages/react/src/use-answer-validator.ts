import { type AnswerValidator, loadAnswerValidator } from "@agui-outbox/core";
import { useEffect, useState } from "react";

/**
 * The core's JSON-Schema validator, loaded when a question with a schema is on
 * screen (so it is there before the person answers, even if the network then goes);
 * `undefined` until it has loaded. A failed load is tried again on the next mount;
 * `answer()` checks the payload itself in any case.
 */
export function useAnswerValidator(needed: boolean): AnswerValidator | undefined {
  const [validator, setValidator] = useState<{ readonly check: AnswerValidator }>();
  useEffect(() => {
    if (!needed || validator) return;
    let current = true;
    loadAnswerValidator().then(
      (check) => {
        if (current) setValidator({ check });
      },
      () => {},
    );
    return () => {
      current = false;
    };
  }, [needed, validator]);
  return validator?.check;
}
