import { expect, test } from "vitest";
import { Lifecycle, reduceLifecycle } from "./lifecycle";

test("idle → opening → ready, and dispose is final", () => {
  let state = reduceLifecycle({ name: "idle" }, { type: "start" });
  expect(state).toEqual({ name: "opening" });
  state = reduceLifecycle(state, { type: "loaded" });
  expect(state).toEqual({ name: "ready" });
  state = reduceLifecycle(state, { type: "dispose" });
  expect(reduceLifecycle(state, { type: "start" })).toEqual({ name: "disposed" });
});

test("a failed open goes back to idle; a late `loaded` does not revive a disposed client", () => {
  expect(reduceLifecycle({ name: "opening" }, { type: "failed" })).toEqual({ name: "idle" });
  expect(reduceLifecycle({ name: "disposed" }, { type: "loaded" })).toEqual({ name: "disposed" });
});

test("whenReady resolves on ready, and on dispose so nothing waits forever", async () => {
  const ready = new Lifecycle();
  ready.dispatch({ type: "start" });
  ready.dispatch({ type: "loaded" });
  await expect(ready.whenReady()).resolves.toBeUndefined();
  const disposed = new Lifecycle();
  disposed.dispatch({ type: "dispose" });
  await disposed.whenReady();
  expect(disposed.isDisposed).toBe(true);
});

test("dispose aborts the lifetime with the disposed error; a step that never settles ends there", async () => {
  const lifecycle = new Lifecycle();
  const held = lifecycle.until(new Promise<void>(() => {}));
  let stopped = 0;
  lifecycle.onDispose(() => {
    stopped += 1;
  });
  lifecycle.dispatch({ type: "dispose" });
  await expect(held).rejects.toMatchObject({ kind: "disposed" });
  expect(lifecycle.signal.reason).toMatchObject({ kind: "disposed" });
  lifecycle.onDispose(() => {
    stopped += 1;
  });
  expect(stopped).toBe(2);
  await expect(lifecycle.until(Promise.resolve())).rejects.toMatchObject({ kind: "disposed" });
});
