import { runOutboxStoreContract } from "../../test/support/store-contract";
import { MemoryStore } from "./memory-store";

runOutboxStoreContract("MemoryStore (chromium)", async () => new MemoryStore());
