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

test("once the task ends, the parent no longer reaches the child: no listener is left behind", async () => {
  const parent = new AbortController();
  let added = 0;
  let removed = 0;
  const add = parent.signal.addEventListener.bind(parent.signal);
  const remove = parent.signal.removeEventListener.bind(parent.signal);
  parent.signal.addEventListener = ((...args: Parameters<typeof add>) => {
    added += 1;
    add(...args);
  }) as typeof add;
  parent.signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
    removed += 1;
    remove(...args);
  }) as typeof remove;

  const children: AbortSignal[] = [];
  for (let i = 0; i < 3; i += 1)
    await withChildSignal(parent.signal, async (signal) => children.push(signal));
  await expect(
    withChildSignal(parent.signal, async () => Promise.reject(new Error("failed"))),
  ).rejects.toThrow();
  parent.abort();

  expect([added, removed]).toEqual([4, 4]);
  expect(children.map((signal) => signal.aborted)).toEqual([false, false, false]);
});
