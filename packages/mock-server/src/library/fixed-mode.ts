import type { Message, RunStatus } from "@agui-outbox/core/protocol";
import {
  type BackgroundAnswer,
  backgroundStatus,
  type ContractServer,
  type ContractStore,
  createContractServer,
  followRun,
  type MemoryDocument,
  MemoryStore,
  parsePollRequest,
  type RunResponse,
  type SseStream,
  type StoredFrame,
} from "@agui-outbox/server";
import { delayOf, FaultAction, FaultPoint } from "../chaos/fault";
import type { FaultQueue } from "../chaos/fault-queue";
import { injectedStatusError } from "../chaos/injected-status";
import { BACKGROUND_POLL_PATH } from "../engine/capabilities";
import type { ResolvedOptions } from "../options";
import type { MockState } from "../state/mock-state";
import { libraryBackgroundDeploy } from "./background-deploy";
import { demoIdentify, unscoped } from "./demo-identity";
import { type LibraryDeployDeps, libraryDeployAgent, type ThreadHistory } from "./deploy-agent";

/** `GET /__occurrences`: one approval occurrence, without the answer's content. */
export interface OccurrenceView {
  readonly threadId: string;
  readonly interruptId: string;
  readonly state: string;
  readonly claimedBy: string | null;
  readonly leaseUntil: string | null;
  readonly resultStored: boolean;
  readonly resolvedBy: string | null;
  readonly expiresAt: string | null;
}

export type AttachTarget =
  | { readonly kind: "unknown" }
  | { readonly kind: "expired" }
  /** A background run: its stored frames are sent, and the stream ends (see {@link FixedMode.backgroundFrames}). */
  | { readonly kind: "background" }
  | { readonly kind: "ok"; readonly lastSeq: number };

export interface FixedModeDeps {
  readonly options: ResolvedOptions;
  readonly faults: FaultQueue;
  /** The mock's state document: the ledger and thread history live there, and the library's document inside it. */
  readonly state: () => MockState;
  /** Persists the state document; throws once the instance is dead. */
  readonly save: () => void;
  /** A `crash` fault fired at `point`: the caller tears the instance down. */
  readonly crash: (point: string) => void;
}

/**
 * Restarts of the mock on one state file are one instance: the runs an earlier
 * life began and never ended are closed by the next one.
 */
const INSTANCE_ID = "agui-outbox-mock";

/**
 * The mock's `fixed` mode: its scripted deploy agent and fault points on
 * `@agui-outbox/server`, over the library's memory store whose document is
 * kept inside the mock's state document (so the file store saves both in one
 * atomic write, and a restart picks both up).
 */
export class FixedMode {
  readonly #deps: FixedModeDeps;
  #store!: MemoryStore;
  #contract!: ContractServer;
  #document: MemoryDocument | undefined;
  /** The streams open on this instance, cut when its runs stop (a reset, a crash). */
  readonly #readers = new Set<SseStream>();
  /** Bumped by a reset: the abandoned server's stragglers must not write into the new state. */
  #generation = 0;

  constructor(deps: FixedModeDeps) {
    this.#deps = deps;
    this.#open(deps.state().contract);
  }

  #open(document: MemoryDocument | undefined): void {
    const { options, faults } = this.#deps;
    const generation = ++this.#generation;
    const current = () => generation === this.#generation;
    const state = () => {
      if (!current()) throw new Error("this mock server was reset");
      return this.#deps.state();
    };
    const save = () => this.#deps.save();
    this.#document = document;
    this.#store = new MemoryStore({
      now: () => options.clock.now(),
      ...(document === undefined ? {} : { document }),
      onChange: (changed) => {
        if (!current()) return;
        this.#document = changed;
        state().contract = changed;
        save();
      },
    });
    const agentDeps: LibraryDeployDeps = {
      faults,
      record: async (entry) => {
        state().ledger.push(entry);
        save();
      },
      history: stateHistory(state, save, () => options.clock.now()),
      now: () => options.clock.now(),
      sleep: options.sleep,
      randomUUID: options.randomUUID,
      toolDurationMs: options.toolDurationMs,
      crash: (point) => {
        this.#contract.abandon();
        this.#deps.crash(point);
      },
    };
    const deploy = libraryDeployAgent(agentDeps);
    this.#contract = createContractServer({
      store: this.#store,
      ...deploy,
      background: libraryBackgroundDeploy(agentDeps),
      instanceId: INSTANCE_ID,
      claimLeaseMs: options.claimLeaseMs,
      idempotencyWindowMs: options.idempotencyWindowMs,
      eventLogRetentionMs: options.eventLogRetentionMs,
      interruptTtlMs: options.interruptTtlMs,
      keepaliveMs: options.keepaliveMs,
      maxBodyBytes: options.maxBodyBytes,
      randomUUID: options.randomUUID,
      identity: { name: "agui-outbox mock agent", version: "0.1.0" },
      identify: demoIdentify,
    });
  }

  /** A `POST /agent` that is neither an emulation nor a background start. */
  async handleRun(raw: Buffer, key: string | undefined, identity: string | undefined): Promise<RunResponse> {
    await this.#prune();
    return this.#contract.engine.handleRun(raw, key, BACKGROUND_POLL_PATH, identity);
  }

  /** The store as `identity` sees it: another identity's runs are not there. */
  #storeOf(identity: string | undefined): ContractStore {
    return this.#contract.engine.storeFor(identity);
  }

  /** Streams the run's log after `afterSeq` until its attempt ends. */
  async stream(
    stream: SseStream,
    runId: string,
    afterSeq: number,
    identity: string | undefined,
  ): Promise<void> {
    this.#readers.add(stream);
    stream.onClose(() => this.#readers.delete(stream));
    const tailPollMs = this.#contract.engine.options.tailPollMs;
    await followRun(this.#storeOf(identity), runId, afterSeq, stream, tailPollMs);
  }

  /** Cuts every open stream: their runs stopped with the server that ran them. */
  #dropReaders(): void {
    const readers = [...this.#readers];
    this.#readers.clear();
    for (const reader of readers) reader.drop();
  }

  /**
   * `POST /agent/background/poll`: the `before-response` fault first (on the
   * polled run's thread), then the library's step.
   */
  async pollBackground(raw: Buffer, identity: string | undefined): Promise<BackgroundAnswer | "abandoned"> {
    await this.#prune();
    const engine = this.#contract.engine;
    const parsed = parsePollRequest(raw);
    const run = parsed.ok ? await this.#storeOf(identity).backgroundByToken(parsed.token) : undefined;
    const early =
      run === undefined ? undefined : this.#deps.faults.take(FaultPoint.beforeResponse, run.threadId);
    if (early?.action === FaultAction.delay) {
      await this.#deps.options.sleep(delayOf(early));
      return engine.abandoned ? "abandoned" : this.pollBackground(raw, identity);
    }
    if (early?.action === FaultAction.crash) {
      this.#deps.crash(FaultPoint.beforeResponse);
      return "abandoned";
    }
    if (early !== undefined) {
      const status = early.status ?? 503;
      const headers: Record<string, string> =
        early.retryAfterMs === undefined
          ? {}
          : { "retry-after": String(Math.ceil(early.retryAfterMs / 1000)) };
      const { code } = injectedStatusError(status);
      return {
        status,
        body: { error: { code, message: "the agent is unavailable; poll again later" } },
        headers,
      };
    }
    const answer = await engine.pollBackground(raw, identity);
    return engine.abandoned ? "abandoned" : answer;
  }

  /** The stored frames of a background run after `afterSeq`: its log grows only inside polls. */
  async backgroundFrames(
    runId: string,
    afterSeq: number,
    identity: string | undefined,
  ): Promise<StoredFrame[] | undefined> {
    const run = await this.#storeOf(identity).background(runId);
    return run?.frames.filter((frame) => frame.seq > afterSeq);
  }

  async runStatus(runId: string, identity: string | undefined): Promise<RunStatus | undefined> {
    await this.#prune();
    const store = this.#storeOf(identity);
    const background = await store.background(runId);
    if (background !== undefined) return backgroundStatus(background);
    const run = await store.run(runId);
    if (run === undefined) return undefined;
    const terminal = run.terminal;
    return {
      runId,
      threadId: run.threadId,
      status: terminal === null ? "running" : terminal.type === "RUN_FINISHED" ? "finished" : "error",
      lastSeq: run.lastSeq,
      terminal: terminal === null ? null : { ...terminal },
      continuationToken: null,
    };
  }

  async attachTarget(runId: string, identity: string | undefined): Promise<AttachTarget> {
    await this.#prune();
    const store = this.#storeOf(identity);
    const run = await store.run(runId);
    if (run === undefined) {
      const background = await store.background(runId);
      return background === undefined ? { kind: "unknown" } : { kind: "background" };
    }
    if (run.expired) return { kind: "expired" };
    return { kind: "ok", lastSeq: run.lastSeq };
  }

  /** The approval occurrences of every thread (or one), read across threads from the store's document. */
  occurrences(threadId: string | null): OccurrenceView[] {
    const document = this.#document;
    if (document === undefined) return [];
    return Object.values(document.occurrences)
      .filter((row) => threadId === null || unscoped(row.threadId) === threadId)
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((row) => ({
        threadId: unscoped(row.threadId),
        interruptId: row.interruptId,
        state: row.state,
        claimedBy: row.claim === null ? null : unscoped(row.claim.runId),
        leaseUntil: row.claim === null ? null : new Date(row.claim.leaseUntil).toISOString(),
        resultStored: row.result !== null,
        resolvedBy: mapOrNull(document.outcomes[row.outcomeKey ?? ""]?.runId, unscoped),
        expiresAt: row.interrupt.expiresAt ?? null,
      }));
  }

  /** Stops every run in flight and starts again on an empty document (the caller emptied the state). */
  reset(): void {
    this.#contract.abandon();
    this.#dropReaders();
    this.#open(undefined);
  }

  /** After a crash or close: every run stops writing, as in a dead process, and its streams are cut. */
  abandon(): void {
    this.#contract.abandon();
    this.#dropReaders();
  }

  /** Expires event logs and idempotency records past their windows, as every request of the mock does. */
  async #prune(): Promise<void> {
    await this.#store.prune(this.#contract.engine.options);
  }
}

/** The thread history the deploy agent keeps, in the mock's state document. */
function stateHistory(state: () => MockState, save: () => void, now: () => number): ThreadHistory {
  return {
    async messages(threadId) {
      return state().threads[threadId]?.messages ?? [];
    },
    async append(threadId, messages: readonly Message[]) {
      const threads = state().threads;
      const thread = threads[threadId] ?? { threadId, messages: [], createdAt: now() };
      threads[threadId] = thread;
      const known = new Set(thread.messages.map((message) => message.id));
      thread.messages.push(...messages.filter((message) => !known.has(message.id)));
      save();
    },
  };
}

function mapOrNull<T>(value: T | undefined, map: (value: T) => T): T | null {
  return value === undefined ? null : map(value);
}
