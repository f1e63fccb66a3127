import { MemoryStore } from "./memory-store";
import { runOutboxStoreContract } from "./store-contract";

runOutboxStoreContract("MemoryStore (chromium)", async () => new MemoryStore());
