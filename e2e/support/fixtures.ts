// The `test` every recovery spec uses: a fresh thread id and a reset mock server per test.
import { test as base, expect } from "@playwright/test";
import { newThreadId } from "./demo-page";
import { MockControl } from "./mock-control";

export interface RecoveryFixtures {
  /** The mock server behind this project's demo, reset before the test, back in `fixed` mode after. */
  readonly mock: MockControl;
  /** A thread no other test uses. */
  readonly threadId: string;
}

export const test = base.extend<RecoveryFixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern.
  mock: async ({}, use, testInfo) => {
    const url = testInfo.project.metadata.mockUrl;
    if (typeof url !== "string") throw new Error("the project's metadata names no mockUrl");
    const mock = new MockControl(url);
    await mock.reset();
    await use(mock);
    await mock.setMode("fixed");
  },
  // biome-ignore lint/correctness/noEmptyPattern: as above.
  threadId: async ({}, use) => {
    await use(newThreadId());
  },
});

export { expect };
