import type { StoreApi } from "zustand/vanilla";
import { ErrorKind, isOutboxError } from "../errors/outbox-error";
import type { OutboxStore } from "../outbox/outbox-store";
import type { ServerKind } from "../outcome/delivery-signal";
import { MetadataKey, RecoveryCapabilitySchema } from "../protocol";
import { backoffDelay } from "../retry/backoff";
import { isAbsentRoute } from "../transport/absent-route";
import type { AgentHttp } from "../transport/agent-http";
import type { OutboxDeps } from "./deps";
import { type ErrorSink, ErrorSource } from "./error-sink";
import type { ConnectionState } from "./outbox-state";

const CAPABILITIES_META_ID = "server-kind";

/*
 * Which rules the server in front of us follows:
 *
 *   unknown ──cached kind read──▶ known(cache) ──capabilities──▶ known(capabilities)
 *      └────────────────capabilities answer──────────────────────────┘
 *   capabilities fail ─▶ link `unreachable`, ask again after a full-jitter backoff
 *
 * A 404 from the capabilities route is an answer (no contract), not an outage.
 */
export type ServerKindState =
  | { readonly name: "unknown" }
  | { readonly name: "known"; readonly kind: ServerKind; readonly from: "cache" | "capabilities" };

export interface ServerKindMachineOptions {
  readonly namespace: string;
  readonly http: AgentHttp;
  readonly deps: OutboxDeps;
  readonly connection: StoreApi<ConnectionState>;
  readonly store: () => OutboxStore | undefined;
  readonly sink: ErrorSink;
}

export class ServerKindMachine {
  readonly #options: ServerKindMachineOptions;
  #state: ServerKindState = { name: "unknown" };
  #timer: unknown;
  #stopped = false;
  #markKnown: () => void = () => {};
  readonly #known: Promise<void>;

  constructor(options: ServerKindMachineOptions) {
    this.#options = options;
    this.#known = new Promise<void>((resolve) => {
      this.#markKnown = resolve;
    });
  }

  get state(): ServerKindState {
    return this.#state;
  }

  /** The rules in force: the known kind, else the connection state's default. */
  current(): ServerKind {
    return this.#state.name === "known" ? this.#state.kind : this.#options.connection.getState().serverKind;
  }

  /** Sending may start: the kind is known (or the start decided to go on without it). */
  whenKnown(): Promise<void> {
    return this.#known;
  }

  /** Lets sending start. */
  markKnown(): void {
    this.#markKnown();
  }

  /** True when a server kind from an earlier start was found in storage. */
  async loadCached(opened: OutboxStore): Promise<boolean> {
    const cached = await opened.getMeta(this.#options.namespace, CAPABILITIES_META_ID).catch(() => undefined);
    if (cached !== "contract" && cached !== "degraded") return false;
    this.#state = { name: "known", kind: cached, from: "cache" };
    this.#options.connection.setState({ serverKind: cached });
    return true;
  }

  /** Reads capabilities; on failure asks again after a backoff. Resolves after the first answer or failure. */
  async refresh(attempt = 0): Promise<void> {
    const { http, deps, connection } = this.#options;
    try {
      const capabilities = await http.capabilities();
      const recovery = RecoveryCapabilitySchema.safeParse(capabilities.custom?.[MetadataKey.recovery]);
      await this.#set(recovery.success ? "contract" : "degraded");
    } catch (error) {
      if (this.#stopped) return;
      // A server that has no capabilities route at all (Agent Framework's AG-UI
      // endpoint answers 404) has no contract either: that is an answer, not an outage.
      if (isOutboxError(error) && error.kind === ErrorKind.http && isAbsentRoute(error.status)) {
        await this.#set("degraded");
        return;
      }
      const delay = backoffDelay(attempt, { random: deps.random });
      connection.setState({
        link: {
          name: "unreachable",
          reason: isOutboxError(error) ? error.message : "The agent could not be reached.",
          retryAt: deps.now() + delay,
        },
      });
      this.#timer = deps.timers.setTimeout(() => {
        this.#options.sink.track(this.refresh(attempt + 1), ErrorSource.capabilities);
      }, delay);
    }
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#options.deps.timers.clearTimeout(this.#timer);
  }

  async #set(kind: ServerKind): Promise<void> {
    const { connection } = this.#options;
    this.#state = { name: "known", kind, from: "capabilities" };
    connection.setState({ serverKind: kind });
    connection.setState({
      link: connection.getState().online ? { name: "connected", serverKind: kind } : { name: "offline" },
    });
    await this.#options
      .store()
      ?.putMeta(this.#options.namespace, CAPABILITIES_META_ID, kind)
      .catch(() => {});
  }
}
