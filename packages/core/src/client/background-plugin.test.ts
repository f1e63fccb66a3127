import { expect, test } from "vitest";
import { ErrorKind, isOutboxError } from "../errors/outbox-error";
import { withoutBackgroundRuns } from "./background-plugin";

test("without the backgroundRuns option there are no runs, and starting one says how to enable them", async () => {
  const runner = withoutBackgroundRuns({} as Parameters<typeof withoutBackgroundRuns>[0]);
  expect(runner.runs.getState().runs).toEqual([]);
  expect(await runner.resumeAll()).toEqual([]);
  const started = await runner.start({ threadId: "t", text: "hi" } as never).catch((error: unknown) => error);
  expect(isOutboxError(started) && started.kind).toBe(ErrorKind.backgroundRunsDisabled);
  expect(String((started as Error).message)).toContain("@agui-outbox/core/background");
});
