import { MemoryStore } from "./memory-store";
import { runOutboxStoreContract } from "./store-contract";

runOutboxStoreContract("MemoryStore (node)", async () => new MemoryStore());
