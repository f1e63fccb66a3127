import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe } from "vitest";
import {
  type ContractServer,
  type ContractStore,
  createContractServer,
  createFileStore,
  MemoryStore,
} from "../src/index";
import { PostgresStore } from "../src/store/postgres";
import { describeIdentitySuite, type IdentityTopology } from "./identity-suite";
import { ContractClient } from "./support/contract-client";
import { postgresUnavailable, startPostgres, type TestPostgres } from "./support/postgres";
import { memoryLedger, scriptedDeployAgent } from "./support/scripted-agent";

/** A server whose `identify` trusts `x-user` (a test stands in for the app's own auth). */
function serve(open: () => Promise<ContractStore>): () => IdentityTopology {
  let contract: ContractServer;
  let http: Server;
  let topology: IdentityTopology;
  beforeAll(async () => {
    const ledger = memoryLedger();
    const { agent, tools } = scriptedDeployAgent(ledger, { holdMs: 5_000 });
    contract = createContractServer({
      store: await open(),
      agent,
      tools,
      keepaliveMs: 1_000,
      sweepIntervalMs: 0,
      identify: (request) => {
        const user = request.headers["x-user"];
        return typeof user === "string" ? user : undefined;
      },
    });
    http = createServer(contract.handler());
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    topology = {
      alice: new ContractClient(url, { "x-user": "alice" }),
      bob: new ContractClient(url, { "x-user": "bob" }),
      nobody: new ContractClient(url),
      ledger,
      sweep: () => contract.sweep(),
    };
  });
  afterAll(async () => {
    await contract?.close();
    http?.closeAllConnections();
    await new Promise((resolve) => http?.close(resolve));
  });
  return () => topology;
}

describe("memory", () => {
  describeIdentitySuite(
    "memory store",
    serve(async () => new MemoryStore()),
  );
});

describe("file", () => {
  const dir = mkdtempSync(join(tmpdir(), "agui-identity-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  describeIdentitySuite(
    "file store",
    serve(async () => createFileStore({ path: join(dir, "state.json") })),
  );
});

const unavailable = postgresUnavailable();
describe.skipIf(unavailable !== undefined)("postgres", () => {
  let postgres: TestPostgres;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(() => postgres?.stop());
  const schema = `t_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  describeIdentitySuite(
    "postgres store",
    serve(() => PostgresStore.open({ connectionString: postgres.url, schema })),
  );
});
