// Shared by every benchmark: percentiles, env-configurable counts, and one way of
// printing a figure with its target beside it, so the runner's output reads the same
// from one benchmark to the next. Nothing here asserts: a missed target is printed.

/** A positive integer from the environment, or the fallback. */
export function envInt(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

/** Nearest-rank percentile (p in 0..100) of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

export function ms(value: number): string {
  return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function perSecond(value: number): string {
  return `${Math.round(value).toLocaleString("en")} events/s`;
}

export function heading(title: string, detail: string): void {
  console.log(`\n== ${title}`);
  console.log(`   ${detail}`);
}

export function figure(name: string, value: string): void {
  console.log(`   ${name.padEnd(44)} ${value}`);
}

/**
 * One line per target: the measured value, the target, and whether it was met.
 * `met` is decided by the caller, which knows whether lower or higher is better.
 */
export function target(name: string, value: string, goal: string, met: boolean): void {
  console.log(
    `   ${name.padEnd(44)} ${value.padEnd(24)} target ${goal.padEnd(12)} ${met ? "met" : "NOT MET"}`,
  );
}

/** How many times each benchmark repeats its measurement; every figure is reported over them. */
export const RUNS = envInt("BENCH_RUNS", 5);

/** `median (min–max)` of per-run figures, each formatted by `format`. */
export function spread(values: readonly number[], format: (value: number) => string): string {
  if (values.length === 0) return "no runs";
  const sorted = [...values].sort((a, b) => a - b);
  const low = sorted[0] as number;
  const high = sorted[sorted.length - 1] as number;
  return `${format(median(values))} (${format(low)}–${format(high)})`;
}

export function times(value: number): string {
  return `${value.toFixed(2)}×`;
}

/** Rotates `items` left by `by`: slot order moves one place each sample. */
export function rotate<T>(items: readonly T[], by: number): T[] {
  const shift = ((by % items.length) + items.length) % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}
