import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type ContractStore, createHttpServer, MemoryStore } from "@agui-outbox/server";
import { createGateway, type Gateway, type GatewayOptions } from "../../src/index";

export interface RunningGateway {
  /** Base URL; the contract's routes are under `${url}/agent`. */
  readonly url: string;
  readonly gateway: Gateway;
  readonly store: ContractStore;
  close(): Promise<void>;
}

/** A gateway on a free port in front of `upstream` (a run endpoint), on a memory store unless given one. */
export async function startGateway(
  upstream: string,
  options: Partial<Omit<GatewayOptions, "upstream">> = {},
): Promise<RunningGateway> {
  const store = options.store ?? new MemoryStore();
  const gateway = createGateway({ sweepIntervalMs: 0, keepaliveMs: 1_000, ...options, upstream, store });
  const http: Server = createHttpServer(gateway.handler());
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url,
    gateway,
    store,
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await gateway.close();
    },
  };
}
