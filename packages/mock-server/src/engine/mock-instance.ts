import type { RunStatus } from "@agui-outbox/core/protocol";
import {
  type BackgroundAnswer,
  parseRunInput,
  type RunResponse,
  type SseStream,
  type StoredFrame,
} from "@agui-outbox/server";
import { AfEngine } from "../af/af-engine";
import type { AfFlavour, AfSink } from "../af/af-shared";
import { delayOf, FaultAction, FaultPoint } from "../chaos/fault";
import type { FaultQueue } from "../chaos/fault-queue";
import { injectedStatusError } from "../chaos/injected-status";
import { type AttachTarget, FixedMode, type OccurrenceView } from "../library/fixed-mode";
import { MockMode, type ResolvedOptions } from "../options";
import { emptyState, type LedgerEntry, type MockState, upgradeState } from "../state/mock-state";
import type { MockStore } from "../store/mock-store";
import { ServerGone } from "./run-failure";

export type { AttachTarget, OccurrenceView } from "../library/fixed-mode";

/** What the HTTP layer does with a `POST /agent`. */
export type AgentPostResult =
  | {
      readonly kind: "error";
      readonly status: number;
      readonly code: string;
      readonly message: string;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | {
      /** A run of the recovery contract, on the library: stream it from the library's store. */
      readonly kind: "contract";
      readonly runId: string;
      readonly afterSeq: number;
      readonly dropAfterFrames: number | undefined;
    }
  | {
      /** A run without the contract: bare frames straight to the response, no log. */
      readonly kind: "direct";
      readonly dropAfterFrames: number | undefined;
      readonly start: (sink: AfSink) => void;
    }
  | {
      readonly kind: "json";
      readonly status: number;
      readonly body: unknown;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | { readonly kind: "crashed" };

export interface MockInstanceDeps {
  readonly options: ResolvedOptions;
  readonly store: MockStore;
  readonly faults: FaultQueue;
  /** Tears the instance down abruptly; the engine has already stopped writing. */
  readonly crash: (point: string) => void;
}

/**
 * One mock instance's state and the modes it serves over it: `fixed` on the
 * recovery contract library ({@link FixedMode}), its background runs, and the
 * emulations of servers without the contract. One state document, persisted
 * after every mutation, holds all of them.
 */
export class MockInstance {
  readonly #options: ResolvedOptions;
  readonly #store: MockStore;
  readonly #faults: FaultQueue;
  readonly #crash: (point: string) => void;
  readonly #af: AfEngine;
  readonly #fixed: FixedMode;
  #state: MockState;
  #mode: MockMode;
  /** Bumped by a reset so runs started before it stop writing. */
  #epoch = 0;
  #dead = false;

  constructor(deps: MockInstanceDeps) {
    this.#options = deps.options;
    this.#store = deps.store;
    this.#faults = deps.faults;
    this.#crash = deps.crash;
    this.#mode = deps.options.mode;
    this.#state = upgradeState(deps.store.load() ?? emptyState());
    this.#af = new AfEngine({
      options: deps.options,
      faults: deps.faults,
      state: () => this.#state,
      save: () => this.#save(),
      aliveCheck: () => this.#aliveCheck(),
      crashAt: (point) => this.#crashAt(point),
    });
    this.#fixed = new FixedMode({
      options: deps.options,
      faults: deps.faults,
      state: () => this.#state,
      save: () => this.#save(),
      crash: (point) => this.#crashAt(point),
    });
  }

  /** `POST /agent/background/poll`; "abandoned" once a crash fault killed the instance. */
  pollBackground(raw: Buffer, identity: string | undefined): Promise<BackgroundAnswer | "abandoned"> {
    return this.#fixed.pollBackground(raw, identity);
  }

  get mode(): MockMode {
    return this.#mode;
  }

  set mode(mode: MockMode) {
    this.#mode = mode;
  }

  ledger(): readonly LedgerEntry[] {
    return this.#state.ledger;
  }

  /** The approval occurrences' states, for inspection; answers' content is left out. */
  occurrences(threadId: string | null): OccurrenceView[] {
    return this.#fixed.occurrences(threadId);
  }

  /** Stops every run in flight and forgets everything, faults included. */
  reset(): void {
    this.#epoch += 1;
    this.#af.reset();
    this.#state = emptyState();
    this.#fixed.reset();
    this.#faults.clear();
    this.#save();
  }

  /** After a crash or close: nothing more is written. */
  markDead(): void {
    this.#dead = true;
    this.#fixed.abandon();
  }

  get dead(): boolean {
    return this.#dead;
  }

  /** Streams a contract run's log (see {@link AgentPostResult} `contract`). */
  streamContract(
    stream: SseStream,
    runId: string,
    afterSeq: number,
    identity: string | undefined,
  ): Promise<void> {
    return this.#fixed.stream(stream, runId, afterSeq, identity);
  }

  runStatus(runId: string, identity: string | undefined): Promise<RunStatus | undefined> {
    return this.#fixed.runStatus(runId, identity);
  }

  attachTarget(runId: string, identity: string | undefined): Promise<AttachTarget> {
    return this.#fixed.attachTarget(runId, identity);
  }

  /** A background run's stored frames after `afterSeq`. */
  backgroundFrames(
    runId: string,
    afterSeq: number,
    identity: string | undefined,
  ): Promise<StoredFrame[] | undefined> {
    return this.#fixed.backgroundFrames(runId, afterSeq, identity);
  }

  /** `identity` scopes the contract's runs (the emulations of servers without it have none). */
  async handleAgentPost(
    raw: Buffer,
    idempotencyKey: string | undefined,
    identity: string | undefined,
  ): Promise<AgentPostResult> {
    const parsed = parseRunInput(raw, this.#options.randomUUID);
    if (!parsed.ok) return { kind: "error", status: 400, code: parsed.code, message: parsed.message };
    const input = parsed.input;

    const early = this.#faults.take(FaultPoint.beforeResponse, input.threadId);
    if (early?.action === FaultAction.delay) {
      // The request stays in flight, nothing read or claimed yet.
      const alive = this.#aliveCheck();
      await this.#options.sleep(delayOf(early));
      if (!alive()) return { kind: "crashed" };
    } else if (early !== undefined) {
      if (early.action === FaultAction.crash) {
        this.#crashAt(FaultPoint.beforeResponse);
        return { kind: "crashed" };
      }
      const status = early.status ?? 503;
      const headers: Record<string, string> = {};
      if (early.retryAfterMs !== undefined)
        headers["retry-after"] = String(Math.ceil(early.retryAfterMs / 1000));
      return {
        kind: "error",
        status,
        ...injectedStatusError(status),
        headers,
      };
    }

    if (this.#mode !== MockMode.fixed) {
      const flavour: AfFlavour = this.#mode;
      const drop = this.#faults.take(FaultPoint.midStream, input.threadId);
      return {
        kind: "direct",
        dropAfterFrames: drop === undefined ? undefined : (drop.afterEvents ?? 1),
        start: (sink) => this.#af.run(flavour, input, sink),
      };
    }

    return this.#contractRun(await this.#fixed.handleRun(raw, idempotencyKey, identity), input.threadId);
  }

  #contractRun(response: RunResponse, threadId: string): AgentPostResult {
    if (response.kind === "abandoned") return { kind: "crashed" };
    if (response.kind === "error") return response;
    if (response.kind === "json") return { kind: "json", ...response.answer };
    const drop = this.#faults.take(FaultPoint.midStream, threadId);
    return {
      kind: "contract",
      runId: response.runId,
      afterSeq: response.afterSeq,
      dropAfterFrames: drop === undefined ? undefined : (drop.afterEvents ?? 1),
    };
  }

  // ── helpers ───────────────────────────────────────────────────────────────

  /** A check that turns false once this instance dies or is reset. */
  #aliveCheck(): () => boolean {
    const epoch = this.#epoch;
    return () => !this.#dead && this.#epoch === epoch;
  }

  #crashAt(point: string): void {
    this.markDead();
    this.#crash(point);
  }

  #save(): void {
    if (this.#dead) throw new ServerGone();
    this.#store.save(this.#state);
  }
}
