import type { StoreConfig } from "../options";
import { FileStore } from "./file-store";
import { MemoryStore } from "./memory-store";
import type { MockStore } from "./mock-store";

export function createStore(config: StoreConfig): MockStore {
  return config.kind === "file" ? new FileStore(config.path) : new MemoryStore();
}
