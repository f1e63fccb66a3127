import type { StoreApi } from "zustand/vanilla";
import { ErrorKind, isOutboxError } from "../errors/outbox-error";
import type { OutboxStore } from "../outbox/outbox-store";
import type { ServerKind } from "../outcome/delivery-signal";
import { MetadataKey } from "../protocol";
import { parseRecoveryCapability } from "../protocol/extension-checks";
import { backoffDelay } from "../retry/backoff";
import { isAbsentRoute } from "../transport/absent-route";
import type { AgentHttp } from "../transport/agent-http";
import type { OutboxDeps } from "./deps";
import { type ErrorSink, ErrorSource } from "./error-sink";
import type { ConnectionState } from "./outbox-state";

export const SERVER_KIND_META_ID = "server-kind";
const CAPABILITIES_META_ID = SERVER_KIND_META_ID;

export function isServerKind(value: unknown): value is ServerKind {
  return value === "contract" || value === "degraded";
}

/** Failed capability reads before the kind is decided without them: with the default backoff, within 15 s. */
export const CAPABILITY_READS_BEFORE_FALLBACK = 5;

/** The widest window between two reads while an answer waits on the network: a server back is noticed within it. */
export const PROBE_CAP_MS = 4_000;

/*
 * Which rules the server in front of us follows:
 *
 *   unknown ──cached kind read──▶ known(cache) ──capabilities──▶ known(capabilities)
 *      ▲└────────────────capabilities answer──────────────────────────┘  │
 *      └──────── contradicted (the server answered like another kind) ◀──┘
 *   capabilities fail ─▶ link `unreachable`, ask again after a full-jitter backoff
 *   unknown ──CAPABILITY_READS_BEFORE_FALLBACK failed reads──▶ known(fallback: degraded)
 *      (the reads go on with backoff; an answer replaces the fallback)
 *   an answer waits on the network ─▶ read (watch), backoff capped at PROBE_CAP_MS
 *      while it waits; the first answer is the server's return (onAnswered)
 *
 * Nothing new is sent while the kind is unknown (a body is shaped for a kind); answers
 * already sent are read with the last kind known. A 404 from the capabilities route is an
 * answer (no contract), not an outage. The fallback reads answers by the degraded rules
 * ("applied" only with the tool's result, no blind retry after `RUN_STARTED`), never
 * guesses `contract`, and is not cached.
 */
export type ServerKindState =
  | { readonly name: "unknown" }
  | {
      readonly name: "known";
      readonly kind: ServerKind;
      readonly from: "cache" | "capabilities" | "fallback";
    };

export interface ServerKindMachineOptions {
  readonly namespace: string;
  readonly http: AgentHttp;
  readonly deps: OutboxDeps;
  readonly connection: StoreApi<ConnectionState>;
  readonly store: () => OutboxStore | undefined;
  readonly sink: ErrorSink;
  /** The client's lifetime: once aborted nothing is asked, and a late answer changes nothing. */
  readonly signal: AbortSignal;
  readonly onKnown: () => void;
  readonly onAnswered: () => void;
  /** An answer waits on a network failure: reads are kept close together meanwhile. */
  readonly waiting: () => boolean;
}

export class ServerKindMachine {
  readonly #options: ServerKindMachineOptions;
  #state: ServerKindState = { name: "unknown" };
  #timer: unknown;
  #busy = false;
  /** Bumped per refresh, so a late answer of an older one is ignored. */
  #generation = 0;

  constructor(options: ServerKindMachineOptions) {
    this.#options = options;
    options.signal.addEventListener("abort", () => {
      if (this.#timer !== undefined) options.deps.timers.clearTimeout(this.#timer);
    });
  }

  get state(): ServerKindState {
    return this.#state;
  }

  current(): ServerKind {
    return this.#state.name === "known" ? this.#state.kind : this.#options.connection.getState().serverKind;
  }

  known(): boolean {
    return this.#state.name === "known";
  }

  /** The server answered unlike its kind: forget the kind and ask again before anything new is sent. */
  contradicted(reason: string): void {
    if (this.#state.name !== "known" || this.#options.signal.aborted) return;
    this.#state = { name: "unknown" };
    this.#options.connection.setState({ link: { name: "detecting", reason } });
    if (this.#timer !== undefined) this.#options.deps.timers.clearTimeout(this.#timer);
    this.#options.sink.track(this.refresh(), ErrorSource.capabilities);
  }

  async loadCached(opened: OutboxStore): Promise<boolean> {
    // An unreadable cache is no cache: the kind stays unknown until capabilities answer.
    const cached = await opened.getMeta(this.#options.namespace, CAPABILITIES_META_ID).catch(() => undefined);
    return this.adoptCached(cached);
  }

  adoptCached(cached: unknown): boolean {
    if (!isServerKind(cached)) return false;
    this.#state = { name: "known", kind: cached, from: "cache" };
    this.#options.connection.setState({ serverKind: cached, serverKindFrom: "cache" });
    this.#options.onKnown();
    return true;
  }

  /** An answer waits on the network: read now; its own backoff (up to 30 s) would be too late. */
  watch(): void {
    if (!this.#busy && this.#options.waiting())
      this.#options.sink.track(this.refresh(), ErrorSource.capabilities);
  }

  async refresh(attempt = 0): Promise<void> {
    const { http, deps, connection, signal } = this.#options;
    if (signal.aborted) return;
    const generation = ++this.#generation;
    if (this.#timer !== undefined) deps.timers.clearTimeout(this.#timer);
    this.#busy = true;
    try {
      const capabilities = await http.capabilities(signal);
      if (signal.aborted || generation !== this.#generation) return;
      const recovery = parseRecoveryCapability(capabilities.custom?.[MetadataKey.recovery]);
      await this.#set(recovery ? "contract" : "degraded");
    } catch (error) {
      if (signal.aborted || generation !== this.#generation) return;
      // A server that has no capabilities route at all (Agent Framework's AG-UI
      // endpoint answers 404) has no contract either: that is an answer, not an outage.
      if (isOutboxError(error) && error.kind === ErrorKind.http && isAbsentRoute(error.status)) {
        await this.#set("degraded");
        return;
      }
      const capMs = this.#options.waiting() ? PROBE_CAP_MS : undefined;
      const delay = backoffDelay(attempt, { random: deps.random, ...(capMs ? { capMs } : {}) });
      const failure = isOutboxError(error) ? error.message : "The agent could not be reached.";
      if (this.#state.name === "unknown" && attempt + 1 >= CAPABILITY_READS_BEFORE_FALLBACK) this.#fallBack();
      const fallback = this.#state.name === "known" && this.#state.from === "fallback";
      connection.setState({
        link: {
          name: "unreachable",
          reason: fallback
            ? `${failure} Capabilities could not be read ${attempt + 1} times: answers go with the rules for servers without the recovery contract until they can.`
            : failure,
          retryAt: deps.now() + delay,
        },
      });
      this.#timer = deps.timers.setTimeout(() => {
        this.#options.sink.track(this.refresh(attempt + 1), ErrorSource.capabilities);
      }, delay);
    }
  }

  #fallBack(): void {
    this.#state = { name: "known", kind: "degraded", from: "fallback" };
    this.#options.connection.setState({ serverKind: "degraded", serverKindFrom: "fallback" });
    this.#options.onKnown();
  }

  async #set(kind: ServerKind): Promise<void> {
    const { connection } = this.#options;
    this.#busy = false;
    this.#state = { name: "known", kind, from: "capabilities" };
    connection.setState({ serverKind: kind, serverKindFrom: "capabilities" });
    connection.setState({
      link: connection.getState().online ? { name: "connected", serverKind: kind } : { name: "offline" },
    });
    this.#options.onKnown();
    this.#options.onAnswered();
    await this.#options
      .store()
      ?.putMeta(this.#options.namespace, CAPABILITIES_META_ID, kind)
      // The cache only speeds up the next start; without it that start waits for
      // capabilities, which is safe. Storage failures reach the outbox state elsewhere.
      .catch(() => {});
  }
}
