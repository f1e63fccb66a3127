import { MemoryStore } from "./memory-store";
import { runOutboxStoreContract } from "../../test/support/store-contract";

runOutboxStoreContract("MemoryStore (chromium)", async () => new MemoryStore());
