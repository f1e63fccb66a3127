import { expect, test } from "vitest";
import { withChildSignal } from "./child-signal";

test("the child is aborted with the parent's reason while the task runs", async () => {
  const parent = new AbortController();
  const reason = new Error("disposed");
  const seen = await withChildSignal(parent.signal, async (signal) => {
    parent.abort(reason);
    return { aborted: signal.aborted, reason: signal.reason };
  });
  expect(seen).toEqual({ aborted: true, reason });
});

test("a parent already aborted gives an aborted child", async () => {
  const parent = new AbortController();
  parent.abort();
  expect(await withChildSignal(parent.signal, async (signal) => signal.aborted)).toBe(true);
});

test("the parent carries one listener however many children it has had, and aborts only live ones", async () => {
  const parent = new AbortController();
  let added = 0;
  const add = parent.signal.addEventListener.bind(parent.signal);
  parent.signal.addEventListener = ((...args: Parameters<typeof add>) => {
    added += 1;
    add(...args);
  }) as typeof add;

  const finished: AbortSignal[] = [];
  for (let i = 0; i < 20; i += 1)
    await withChildSignal(parent.signal, async (signal) => finished.push(signal));
  await expect(
    withChildSignal(parent.signal, async () => Promise.reject(new Error("failed"))),
  ).rejects.toThrow();
  let release!: () => void;
  const live = withChildSignal(
    parent.signal,
    (signal) =>
      new Promise<boolean>((resolve) => {
        release = () => resolve(signal.aborted);
      }),
  );
  parent.abort();
  release();

  expect(added).toBe(1);
  expect(await live).toBe(true);
  expect(finished.some((signal) => signal.aborted)).toBe(false);
});
