import { randomUUID } from "node:crypto";
import type { MockStore } from "./store/mock-store";

/**
 * Server behaviours the mock can emulate. `fixed` implements the recovery
 * contract; the union grows with emulations of servers that predate it.
 */
export const MockMode = {
  /** The recovery contract. */
  fixed: "fixed",
  /** Agent Framework before the fix: consume-before-execute, NOT_FOUND on every retry. */
  afLegacy: "af-legacy",
  /** Agent Framework with in-process occurrence states: 900 s replay, INVALID for the rest. */
  afLifecycle: "af-lifecycle",
} as const;
export type MockMode = (typeof MockMode)[keyof typeof MockMode];

export function isMockMode(value: unknown): value is MockMode {
  return typeof value === "string" && (Object.values(MockMode) as string[]).includes(value);
}

/** Where the server keeps threads, claims, idempotency records, run logs and the ledger. */
export type StoreConfig =
  | { readonly kind: "memory" }
  | { readonly kind: "file"; readonly path: string }
  /** A store the caller owns (benchmarks keep a snapshot of the state to start again from it). */
  | { readonly kind: "custom"; readonly store: MockStore };

export interface MockClock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** Why the in-process server died: a `crash` fault names its point. */
export interface CrashInfo {
  readonly point: string;
}

export interface MockServerOptions {
  /** TCP port; 0 picks an ephemeral one. @default 0 */
  readonly port?: number;
  /** @default "127.0.0.1" */
  readonly host?: string;
  /** @default "fixed" */
  readonly mode?: MockMode;
  /** @default { kind: "memory" } */
  readonly store?: StoreConfig;
  /** Wall clock for leases, expiries and retention windows. @default Date.now */
  readonly clock?: MockClock;
  /** Waits between agent steps (tool duration). Tests inject a controllable one. @default setTimeout */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Id source for runs' messages and tool calls. @default crypto.randomUUID */
  readonly randomUUID?: () => string;
  /** Interval between `: keepalive` SSE comments. @default 15000 */
  readonly keepaliveMs?: number;
  /** How long a claim survives without its run making progress. @default 30000 */
  readonly claimLeaseMs?: number;
  /** How long idempotency keys and outcome records are kept. @default 86400000 (24 h) */
  readonly idempotencyWindowMs?: number;
  /** How long a run's event log can be re-attached to after its last event. @default 3600000 (1 h) */
  readonly eventLogRetentionMs?: number;
  /** Lifetime of an interrupt, published as `Interrupt.expiresAt`. @default 3600000 (1 h) */
  readonly interruptTtlMs?: number;
  /** How long the approved tool takes, so a crash mid-tool can be scheduled. @default 100 */
  readonly toolDurationMs?: number;
  /** Request bodies above this get 413. @default 1048576 (1 MiB) */
  readonly maxBodyBytes?: number;
  /** A body not all arrived within this gets 408 and its connection closes. @default 30000 */
  readonly bodyTimeoutMs?: number;
  /** A connection with nothing read or written this long is cut. @default 60000, or 4 × keepaliveMs */
  readonly idleTimeoutMs?: number;
  /**
   * Called after a `crash` fault killed the instance (sockets destroyed, timers
   * stopped, nothing more written). The CLI exits the process here.
   */
  readonly onCrash?: (info: CrashInfo) => void;
  /** Called after `POST /__mode` switched the mode, so a supervisor can restart in it. */
  readonly onModeChange?: (mode: MockMode) => void;
}

export interface ResolvedOptions {
  readonly port: number;
  readonly host: string;
  readonly mode: MockMode;
  readonly store: StoreConfig;
  readonly clock: MockClock;
  readonly sleep: (ms: number) => Promise<void>;
  readonly randomUUID: () => string;
  readonly keepaliveMs: number;
  readonly claimLeaseMs: number;
  readonly idempotencyWindowMs: number;
  readonly eventLogRetentionMs: number;
  readonly interruptTtlMs: number;
  readonly toolDurationMs: number;
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly onCrash: (info: CrashInfo) => void;
  readonly onModeChange: (mode: MockMode) => void;
}

export function resolveOptions(options: MockServerOptions = {}): ResolvedOptions {
  return {
    port: options.port ?? 0,
    host: options.host ?? "127.0.0.1",
    mode: options.mode ?? MockMode.fixed,
    store: options.store ?? { kind: "memory" },
    clock: options.clock ?? { now: () => Date.now() },
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    randomUUID: options.randomUUID ?? (() => randomUUID()),
    keepaliveMs: options.keepaliveMs ?? 15_000,
    claimLeaseMs: options.claimLeaseMs ?? 30_000,
    idempotencyWindowMs: options.idempotencyWindowMs ?? 24 * 60 * 60 * 1000,
    eventLogRetentionMs: options.eventLogRetentionMs ?? 60 * 60 * 1000,
    interruptTtlMs: options.interruptTtlMs ?? 60 * 60 * 1000,
    toolDurationMs: options.toolDurationMs ?? 100,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    bodyTimeoutMs: options.bodyTimeoutMs ?? 30_000,
    idleTimeoutMs: options.idleTimeoutMs ?? Math.max(60_000, 4 * (options.keepaliveMs ?? 15_000)),
    onCrash: options.onCrash ?? (() => {}),
    onModeChange: options.onModeChange ?? (() => {}),
  };
}
