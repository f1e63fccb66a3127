// Runs the mock server in its own process for benchmarks that measure the client's
// time and heap: the server's work and memory then stay out of both. Options come as
// JSON in BENCH_MOCK_OPTIONS; the URL is printed as one JSON line on stdout.
//
// Over the IPC channel the parent can ask for a snapshot of the server's state
// (`{ op: "snapshot" }`) and later start a fresh server on the same port from a copy
// of it (`{ op: "restore" }`): the drain builds its 1,000 open approvals once and
// starts every sample from the same server state, without building them again.
import {
  type MockServer,
  type MockServerOptions,
  type MockState,
  startMockServer,
} from "@agui-outbox/mock-server";
import { benchPort, PortOffset } from "./ports.ts";

export type MockChildCommand = { readonly op: "snapshot" } | { readonly op: "restore" };

const options = JSON.parse(process.env.BENCH_MOCK_OPTIONS ?? "{}") as MockServerOptions;
/** The engine's live state: it saves the same object after every change. */
let live: MockState | undefined;
let snapshot: MockState | undefined;

function start(port: number, from: MockState | undefined): Promise<MockServer> {
  live = undefined;
  return startMockServer({
    ...options,
    port,
    store: {
      kind: "custom",
      store: {
        load: () => (from === undefined ? undefined : structuredClone(from)),
        save: (state) => {
          live = state;
        },
      },
    },
  });
}

let server = await start(benchPort(PortOffset.mock), undefined);
console.log(JSON.stringify({ url: server.url }));

process.on("message", (command: MockChildCommand) => {
  void (async () => {
    if (command.op === "snapshot") {
      snapshot = live === undefined ? undefined : structuredClone(live);
    } else {
      await server.close();
      server = await start(server.port, snapshot);
    }
    process.send?.({ done: command.op });
  })();
});
const stop = () => void server.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("disconnect", stop);
