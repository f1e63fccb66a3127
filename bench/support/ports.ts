// Ports for what a benchmark starts. Unset, every server takes an ephemeral port
// (a fresh clone collides with nothing); BENCH_PORT_BASE=8900 puts them in a fixed
// block instead (base + offset), for a machine where each user keeps to a range.
// Benchmarks run one after another, so each may reuse the same offsets.
export const PortOffset = {
  page: 0,
  mock: 1,
  stream: 2,
} as const;

export function benchPort(offset: number): number {
  const text = process.env.BENCH_PORT_BASE;
  if (text === undefined || text === "") return 0;
  const base = Number(text);
  if (!Number.isInteger(base) || base <= 0 || base + offset > 65_535) {
    throw new Error("BENCH_PORT_BASE must be a port number");
  }
  return base + offset;
}
