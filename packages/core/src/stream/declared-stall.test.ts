// A server that declares how often it speaks (`retry:`) lets a silent stall be
// noticed within 5 s of when it should have spoken, instead of after 45 s.
import { afterEach, expect, test, vi } from "vitest";
import { bytes, controlledResponse } from "../../test/support/sse-fixtures";
import { ErrorKind } from "../errors/outbox-error";
import { readEventStream } from "./read-event-stream";

afterEach(() => {
  vi.useRealTimers();
});

test("a stream that declared `retry: 2000` and went silent stalls after 2 s + 5 s, not 45 s", async () => {
  vi.useFakeTimers();
  const { response, controller } = controlledResponse();
  const next = readEventStream(response).next();
  const settled = vi.fn();
  next.then(settled, settled);
  controller.enqueue(bytes("retry: 2000\n\n"));
  await vi.advanceTimersByTimeAsync(6_999);
  expect(settled).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(1);
  await expect(next).rejects.toMatchObject({ kind: ErrorKind.streamStalled });
});

test("a declared interval never lengthens the bound: `retry: 60000` keeps 45 s", async () => {
  vi.useFakeTimers();
  const { response, controller } = controlledResponse();
  const next = readEventStream(response).next();
  const settled = vi.fn();
  next.then(settled, settled);
  controller.enqueue(bytes("retry: 60000\n\n"));
  await vi.advanceTimersByTimeAsync(44_999);
  expect(settled).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(1);
  await expect(next).rejects.toMatchObject({ kind: ErrorKind.streamStalled });
});
