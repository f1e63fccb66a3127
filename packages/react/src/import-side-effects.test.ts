// Importing the packages changes nothing global (issue 16): no zod configuration (the
// SDK used to set `z.config({ jitless: true })` for the whole app), no listeners, no
// storage opened. Every public entry is imported here, as an app would.
import { expect, test, vi } from "vitest";
import * as z from "zod/mini";

test("importing every entry leaves zod's configuration, listeners and storage alone", async () => {
  // Node has no global addEventListener: stand one in, as a browser page has.
  const addEventListener = vi.fn();
  vi.stubGlobal("addEventListener", addEventListener);
  const open = vi.spyOn(globalThis.indexedDB, "open");
  await import("@agui-outbox/core");
  await import("@agui-outbox/background");
  await import("@agui-outbox/core/validator");
  await import("@agui-outbox/react");
  await import("@agui-outbox/core/protocol");
  await import("@agui-outbox/core/testing");
  await import("@agui-outbox/core/verdict-table");
  await import("@agui-outbox/core/sealing");
  // Unbundled, `@ag-ui/core` loads classic zod, which installs its own English messages
  // (zod's doing, in any app that imports it); the SDK sets nothing, jitless least of all.
  const {
    localeError: _zodMessages,
    memoizer: _zodMemoizer,
    ...ours
  } = z.config() as Record<string, unknown>;
  expect(ours).toEqual({});
  expect(addEventListener).not.toHaveBeenCalled();
  expect(open).not.toHaveBeenCalled();
  vi.unstubAllGlobals();
});
