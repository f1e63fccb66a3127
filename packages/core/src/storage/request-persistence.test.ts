import { expect, test, vi } from "vitest";
import { requestPersistentStorage } from "./request-persistence";

test("reports granted when the browser grants persistence", async () => {
  const persist = vi.fn(async () => true);
  await expect(requestPersistentStorage({ persist, persisted: async () => false })).resolves.toBe("granted");
  expect(persist).toHaveBeenCalledTimes(1);
});

test("reports denied when the browser refuses", async () => {
  await expect(requestPersistentStorage({ persist: async () => false })).resolves.toBe("denied");
});

test("does not ask again when storage is already persistent", async () => {
  const persist = vi.fn(async () => false);
  await expect(requestPersistentStorage({ persist, persisted: async () => true })).resolves.toBe("granted");
  expect(persist).not.toHaveBeenCalled();
});

test("reports unsupported without a StorageManager and never throws", async () => {
  await expect(requestPersistentStorage(undefined)).resolves.toBe("unsupported");
  const broken = { persist: undefined } as unknown as StorageManager;
  await expect(requestPersistentStorage(broken)).resolves.toBe("unsupported");
});

test("a rejecting persist() is reported as denied, not thrown", async () => {
  const persist = async (): Promise<boolean> => {
    throw new DOMException("not allowed", "NotAllowedError");
  };
  await expect(requestPersistentStorage({ persist })).resolves.toBe("denied");
});

test("the default reads navigator.storage when called, not at import", async () => {
  vi.stubGlobal("navigator", { storage: { persist: async () => true } });
  try {
    await expect(requestPersistentStorage()).resolves.toBe("granted");
  } finally {
    vi.unstubAllGlobals();
  }
  vi.stubGlobal("navigator", undefined);
  try {
    await expect(requestPersistentStorage()).resolves.toBe("unsupported");
  } finally {
    vi.unstubAllGlobals();
  }
});
