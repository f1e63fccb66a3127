import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { ContractStore } from "../store/contract-store";
import { type AgentHandler, type ApprovalReader, readApproval, type ToolDefinition } from "./agent";
import type { BackgroundAgent } from "./background-agent";
import type { AfterClaim, BeforeClaim } from "./claim-hooks";
import type { Hydrate } from "./hydration";
import { realClock, type ServerClock } from "./server-clock";

/**
 * The app's own verifier of who sends a request (a session cookie, a header
 * its gateway sets, a JWT's subject): the identity, or undefined to answer
 * 401 UNAUTHENTICATED. It must check what it reads; the library only scopes.
 */
export type Identify = (request: IncomingMessage) => string | undefined | Promise<string | undefined>;

export interface ContractServerOptions {
  /** Where claims, results, outcome records and event logs live. */
  readonly store: ContractStore;
  /** The team's agent. */
  readonly agent: AgentHandler;
  /**
   * Background runs (`forwardedProps.background: true`, polled with continuation
   * tokens): their tool calls run through `tools` once each, and a re-poll with
   * the held token resubmits the stored results. @default none (a background
   * request runs as an ordinary streamed run)
   */
  readonly background?: BackgroundAgent;
  /**
   * Who is asking. Every thread, run, claim, idempotency key, replay, read and
   * hydration belongs to the identity it returns; another identity's thread or
   * run answers exactly as one that never existed. @default none: every caller
   * is one anonymous identity (any caller who knows an id can use it)
   */
  readonly identify?: Identify;
  /** Tools that need approval, by the name the agent's tool calls use; each runs at most once per occurrence. */
  readonly tools?: Readonly<Record<string, ToolDefinition>>;
  /**
   * Adds events to a hydration (a run with no messages) before its
   * `RUN_FINISHED` with the open interrupts, e.g. the thread's
   * `MESSAGES_SNAPSHOT`; it must change nothing. @default none
   */
  readonly hydrate?: Hydrate;
  /**
   * Called once a resume's batch is valid and about to be claimed, before
   * anything is written: return `{ refuse: { code, message } }` to end the
   * request with that `RUN_ERROR` and nothing claimed (the same key may retry).
   * An awaited hook holds the request in flight. @default none
   */
  readonly beforeClaim?: BeforeClaim;
  /**
   * Called after the claim is written and acknowledged, before any tool runs;
   * throwing rolls the claim back with a `RUN_ERROR` (see {@link AfterClaim}). @default none
   */
  readonly afterClaim?: AfterClaim;
  /**
   * Schedules lease renewals and the sweeper. Lease time itself is the store's
   * clock (`MemoryStore({ now })`, the database's on Postgres); a manual clock
   * lets a test decide when renewals and sweeps happen. @default setInterval
   */
  readonly clock?: ServerClock;
  /** Reads approve/reject and edited arguments from a decision. @default readApproval ({approved|accepted, editedArgs}) */
  readonly readApproval?: ApprovalReader;
  /** Names this instance on its runs' leases. @default crypto.randomUUID() */
  readonly instanceId?: string;
  /** How long a claim or run survives without its instance renewing it. @default 30000 */
  readonly claimLeaseMs?: number;
  /** How long idempotency keys and outcome records are kept. @default 86400000 (24 h) */
  readonly idempotencyWindowMs?: number;
  /** How long a finished run's event log can be re-attached to. @default 3600000 (1 h) */
  readonly eventLogRetentionMs?: number;
  /** Lifetime of an interrupt that names no `expiresAt` of its own. @default 3600000 (1 h) */
  readonly interruptTtlMs?: number;
  /** Interval between `: keepalive` SSE comments. @default 15000 */
  readonly keepaliveMs?: number;
  /** How often this instance sweeps lapsed leases and prunes past retention; 0 = never (call `sweep()` yourself). @default 5000 */
  readonly sweepIntervalMs?: number;
  /** A stream reader re-reads the log this often even without a notification. @default 2000 */
  readonly tailPollMs?: number;
  /** Request bodies above this get 413. @default 1048576 (1 MiB) */
  readonly maxBodyBytes?: number;
  /** @default crypto.randomUUID */
  readonly randomUUID?: () => string;
  /** Published in capabilities. */
  readonly identity?: { readonly name: string; readonly version?: string };
}

export type ResolvedServerOptions = Required<
  Omit<
    ContractServerOptions,
    "identity" | "background" | "beforeClaim" | "afterClaim" | "hydrate" | "identify"
  >
> & {
  readonly identity: { readonly name: string; readonly version?: string };
  readonly background: BackgroundAgent | undefined;
  readonly beforeClaim: BeforeClaim | undefined;
  readonly afterClaim: AfterClaim | undefined;
  readonly hydrate: Hydrate | undefined;
  readonly identify: Identify | undefined;
};

export function resolveServerOptions(options: ContractServerOptions): ResolvedServerOptions {
  const uuid = options.randomUUID ?? (() => randomUUID());
  return {
    store: options.store,
    agent: options.agent,
    background: options.background,
    tools: options.tools ?? {},
    beforeClaim: options.beforeClaim,
    afterClaim: options.afterClaim,
    hydrate: options.hydrate,
    identify: options.identify,
    clock: options.clock ?? realClock,
    readApproval: options.readApproval ?? readApproval,
    instanceId: options.instanceId ?? uuid(),
    claimLeaseMs: options.claimLeaseMs ?? 30_000,
    idempotencyWindowMs: options.idempotencyWindowMs ?? 24 * 60 * 60 * 1000,
    eventLogRetentionMs: options.eventLogRetentionMs ?? 60 * 60 * 1000,
    interruptTtlMs: options.interruptTtlMs ?? 60 * 60 * 1000,
    keepaliveMs: options.keepaliveMs ?? 15_000,
    sweepIntervalMs: options.sweepIntervalMs ?? 5_000,
    tailPollMs: options.tailPollMs ?? 2_000,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    randomUUID: uuid,
    identity: options.identity ?? { name: "agui-outbox contract server" },
  };
}
