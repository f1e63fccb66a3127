import { identityOf } from "./scoped-store";

/** Caps on what a memory or file store keeps of run logs, for all identities and for each one. */
export interface StoreLimits {
  /** Run logs' bytes (JSON of their events) across identities. @default 268435456 (256 MiB) */
  readonly maxBytes?: number;
  /** Runs kept (running, finished, or with their log expired) across identities. @default 100000 */
  readonly maxRuns?: number;
  /** Run logs' bytes of one identity (the anonymous one, without `identify`, is one). @default 33554432 (32 MiB) */
  readonly maxBytesPerIdentity?: number;
  /** Runs of one identity. @default 10000 */
  readonly maxRunsPerIdentity?: number;
}

interface Tally {
  bytes: number;
  runs: number;
}

/** What a run costs, and what may happen to it. */
interface Entry {
  readonly identity: string;
  bytes: number;
  /** Only ended runs are evicted: a running one may hold a claim that is not settled. */
  ended: boolean;
  /** Its log is gone already (retention or bytes): only the record is left. */
  expired: boolean;
}

export type Eviction = { readonly kind: "expire-log" | "delete"; readonly runId: string };

const ANONYMOUS = "";

/**
 * The accounting behind a memory store's caps. Runs are kept in the order they
 * were last written (a Map re-inserted on each write), so the oldest ended
 * ones go first: past a bytes cap their log is dropped (a re-attach gets 410,
 * as past retention, and the client hydrates); past a count cap the run goes.
 * A running run is never evicted, so neither is a claim it holds.
 */
export class RunBounds {
  readonly #limits: Required<StoreLimits>;
  readonly #runs = new Map<string, Entry>();
  readonly #total: Tally = { bytes: 0, runs: 0 };
  readonly #byIdentity = new Map<string, Tally>();
  /** Identities past one of their caps: with none and the totals under theirs, nothing is scanned. */
  readonly #overIdentities = new Set<string>();

  constructor(limits: StoreLimits = {}) {
    this.#limits = {
      maxBytes: limits.maxBytes ?? 256 * 1024 * 1024,
      maxRuns: limits.maxRuns ?? 100_000,
      maxBytesPerIdentity: limits.maxBytesPerIdentity ?? 32 * 1024 * 1024,
      maxRunsPerIdentity: limits.maxRunsPerIdentity ?? 10_000,
    };
  }

  get bytes(): number {
    return this.#total.bytes;
  }

  /** A run was written: `bytes` more in its log; `ended` when the write was its terminal event. */
  wrote(runId: string, threadId: string, bytes: number, ended: boolean): void {
    let entry = this.#runs.get(runId);
    if (entry === undefined) {
      entry = { identity: identityOf(threadId) ?? ANONYMOUS, bytes: 0, ended, expired: false };
      this.#tally(entry.identity, 0, 1);
    }
    this.#runs.delete(runId);
    this.#runs.set(runId, entry);
    entry.bytes += bytes;
    entry.ended = ended;
    entry.expired = false;
    this.#tally(entry.identity, bytes, 0);
  }

  /** The run's log was dropped (retention), its record kept. */
  expired(runId: string): void {
    const entry = this.#runs.get(runId);
    if (entry === undefined) return;
    this.#tally(entry.identity, -entry.bytes, 0);
    entry.bytes = 0;
    entry.expired = true;
  }

  /** The run is gone (retention). */
  deleted(runId: string): void {
    const entry = this.#runs.get(runId);
    if (entry === undefined) return;
    this.#tally(entry.identity, -entry.bytes, -1);
    this.#runs.delete(runId);
  }

  /** What to evict, oldest ended runs first, until the caps hold again (as far as ended runs allow). */
  evictions(): Eviction[] {
    const out: Eviction[] = [];
    const overAll = this.#total.bytes > this.#limits.maxBytes || this.#total.runs > this.#limits.maxRuns;
    if (!overAll && this.#overIdentities.size === 0) return out;
    for (const [runId, entry] of this.#runs) {
      if (!this.#over(entry.identity)) continue;
      if (!entry.ended) continue;
      const tally = this.#byIdentity.get(entry.identity) ?? { bytes: 0, runs: 0 };
      const tooMany = this.#total.runs > this.#limits.maxRuns || tally.runs > this.#limits.maxRunsPerIdentity;
      if (tooMany) {
        out.push({ kind: "delete", runId });
        this.deleted(runId);
      } else if (!entry.expired) {
        out.push({ kind: "expire-log", runId });
        this.expired(runId);
      }
    }
    return out;
  }

  #over(identity: string): boolean {
    const tally = this.#byIdentity.get(identity) ?? { bytes: 0, runs: 0 };
    return (
      this.#total.bytes > this.#limits.maxBytes ||
      this.#total.runs > this.#limits.maxRuns ||
      tally.bytes > this.#limits.maxBytesPerIdentity ||
      tally.runs > this.#limits.maxRunsPerIdentity
    );
  }

  #tally(identity: string, bytes: number, runs: number): void {
    this.#total.bytes += bytes;
    this.#total.runs += runs;
    const tally = this.#byIdentity.get(identity) ?? { bytes: 0, runs: 0 };
    tally.bytes += bytes;
    tally.runs += runs;
    if (tally.runs === 0) this.#byIdentity.delete(identity);
    else this.#byIdentity.set(identity, tally);
    const over =
      tally.bytes > this.#limits.maxBytesPerIdentity || tally.runs > this.#limits.maxRunsPerIdentity;
    if (over) this.#overIdentities.add(identity);
    else this.#overIdentities.delete(identity);
  }
}
