import type { StoreConfig } from "../options";
import { FileStore } from "./file-store";
import { MemoryStore } from "./memory-store";
import type { MockStore } from "./mock-store";

export function createStore(config: StoreConfig): MockStore {
  if (config.kind === "custom") return config.store;
  return config.kind === "file" ? new FileStore(config.path) : new MemoryStore();
}
