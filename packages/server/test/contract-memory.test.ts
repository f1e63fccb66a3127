import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { type ContractServer, createContractServer, MemoryStore } from "../src/index";
import { describeContractSuite } from "./contract-suite";
import { ContractClient } from "./support/contract-client";
import { type Ledger, memoryLedger, scriptedDeployAgent } from "./support/scripted-agent";

let contract: ContractServer;
let http: Server;
let client: ContractClient;
const ledger: Ledger = memoryLedger();

beforeAll(async () => {
  const { agent, tools } = scriptedDeployAgent(ledger, { holdMs: 5_000 });
  contract = createContractServer({ store: new MemoryStore(), agent, tools, keepaliveMs: 1_000 });
  http = createServer(contract.handler());
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  client = new ContractClient(`http://127.0.0.1:${(http.address() as AddressInfo).port}`);
});

afterAll(async () => {
  await contract.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

describeContractSuite("memory store, one process", () => ({ client, ledger }));
