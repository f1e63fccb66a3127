#!/usr/bin/env node
import type { AddressInfo } from "node:net";
import { createHttpServer } from "@agui-outbox/server";
import { parseCliArgs, USAGE } from "./cli-args";
import { createGateway } from "./gateway";
import { GatewayError } from "./gateway-error";
import { openStore, openThreadLock } from "./open-store";

async function main(argv: readonly string[]): Promise<void> {
  const args = parseCliArgs(argv);
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const gateway = createGateway({
    upstream: args.upstream,
    store: await openStore(args.store),
    // On Postgres, one run per thread across every replica on the database.
    threadLock: await openThreadLock(args.store),
    ...(args.leaseMs === undefined ? {} : { claimLeaseMs: args.leaseMs }),
    ...(args.sweepMs === undefined ? {} : { sweepIntervalMs: args.sweepMs }),
  });
  const http = createHttpServer(gateway.handler({ cors: args.cors }));
  await new Promise<void>((resolve) => http.listen(args.port, args.host, resolve));
  const { port } = http.address() as AddressInfo;
  console.log(`gateway: http://${args.host}:${port}/agent → ${args.upstream} (store: ${args.store.kind})`);
  const stop = () => {
    http.close();
    // Live runs end with a retryable RUN_ERROR; their clients retry against the next process.
    gateway.close().finally(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof GatewayError ? error.message : String(error);
  console.error(`agui-outbox-gateway: ${message}\n\n${USAGE}`);
  process.exit(2);
});
