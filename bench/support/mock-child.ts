// Runs the mock server in its own process for benchmarks that measure the client's
// time and heap: the server's work and memory then stay out of both. Options come as
// JSON in BENCH_MOCK_OPTIONS; the URL is printed as one JSON line on stdout.
import { type MockServerOptions, startMockServer } from "@agui-outbox/mock-server";
import { benchPort, PortOffset } from "./ports.ts";

const options = JSON.parse(process.env.BENCH_MOCK_OPTIONS ?? "{}") as MockServerOptions;
const server = await startMockServer({ ...options, port: benchPort(PortOffset.mock) });
console.log(JSON.stringify({ url: server.url }));
const stop = () => void server.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("disconnect", stop);
