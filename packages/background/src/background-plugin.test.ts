import { ErrorKind, isOutboxError } from "@agui-outbox/core";
import { expect, test } from "vitest";
import { backgroundRuns } from "./background-plugin";

test("background runs not attached to a client: starting one says how to attach them", async () => {
  const background = backgroundRuns();
  const started = await background.start({ threadId: "t", text: "hi" }).catch((error: unknown) => error);
  expect(isOutboxError(started) && started.kind).toBe(ErrorKind.backgroundRunsDisabled);
  expect(String((started as Error).message)).toContain("createOutboxClient({ plugins: [background] })");
  const read = (() => {
    try {
      return background.runs;
    } catch (error) {
      return error;
    }
  })();
  expect(isOutboxError(read) && read.kind).toBe(ErrorKind.backgroundRunsDisabled);
});
