import { expect, test } from "vitest";
import { createEntry } from "../outbox/reducer";
import { outcomeContext, serverFamilyOf } from "./context";

const base = createEntry({
  key: "k",
  namespace: "ns",
  threadId: "t",
  interruptId: "i",
  runId: "r",
  body: "{}",
  decision: { kind: "reject" },
  now: 0,
});

test("the first attempt in flight counts as not sent before, so NOT_FOUND can mean a stale card", () => {
  const sending = { ...base, state: "sending" as const, attempts: 1, everSent: true };
  expect(outcomeContext(sending, "contract")).toEqual({
    serverKind: "contract",
    sentBefore: false,
    acked: false,
    decision: "reject",
  });
});

test("a second attempt in flight was sent before", () => {
  const streaming = {
    ...base,
    state: "streaming" as const,
    attempts: 2,
    everSent: true,
    cursor: { runId: "r", lastSeq: 3, acked: true },
  };
  expect(outcomeContext(streaming, "degraded")).toMatchObject({
    serverKind: "degraded",
    sentBefore: true,
    acked: true,
  });
});

test("with nothing in flight, any earlier attempt counts as sent before", () => {
  expect(outcomeContext({ ...base, state: "retry_wait", attempts: 1 }, "contract").sentBefore).toBe(true);
  expect(outcomeContext(base, "contract").sentBefore).toBe(false);
});

test("pydantic-ai is read from its interrupt ids, int-<toolCallId>, and only on a server without the contract", () => {
  const pydanticAi = { ...base, interruptId: "int-deploy-t", toolCallId: "deploy-t" };
  expect(serverFamilyOf(pydanticAi)).toBe("pydantic-ai");
  expect(outcomeContext(pydanticAi, "degraded").serverFamily).toBe("pydantic-ai");
  expect(outcomeContext(pydanticAi, "contract").serverFamily).toBeUndefined();
  // Agent Framework 1.7.0's af-call-<uuid>, and an id that is the tool call id itself.
  expect(serverFamilyOf({ interruptId: "af-call-1b2c", toolCallId: "deploy-t" })).toBeUndefined();
  expect(serverFamilyOf({ interruptId: "deploy-t", toolCallId: "deploy-t" })).toBeUndefined();
  expect(serverFamilyOf({ interruptId: "int-deploy-t" })).toBeUndefined();
});
