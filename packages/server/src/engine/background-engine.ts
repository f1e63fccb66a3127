import { createHash } from "node:crypto";
import {
  type AgUiEvent,
  type BackgroundStart,
  MetadataKey,
  OutcomeCode,
  type RunAgentInput,
} from "@agui-outbox/core/protocol";
import type { BackgroundRunRecord } from "../store/background-records";
import type { ContractStore } from "../store/contract-store";
import type { StoredFrame } from "../store/records";
import { stampCursor } from "../store/release-claim";
import { advance } from "./background-advance";
import type { BackgroundAgent } from "./background-agent";
import { openQuestions, readAnswers } from "./background-answers";
import {
  type BackgroundAnswer,
  error,
  newToken,
  parsePollRequest,
  pollInProgress,
  responseOf,
  runIdUsed,
  transient,
} from "./background-steps";
import type { ResolvedServerOptions } from "./options";

export { type BackgroundAnswer, parsePollRequest, responseOf } from "./background-steps";

/** Another poll wrote the run while this one ran: it has the run now. */
class PollLost extends Error {}

/**
 * Background runs over the store, so any replica can take the next poll:
 *
 *   start ─▶ token₀ ─poll─▶ model response (stored) ─▶ each tool: EXECUTING ─▶ result stored ─▶ submit ─▶ token₁ ─poll─▶ … ─▶ no tool call: RUN_FINISHED
 *                              │                         submit throws → token₀ stays current; its re-poll submits the stored results again
 *                              └─ response ends in interrupts ─▶ calls ASKED, questions opened, RUN_FINISHED(interrupt), `interrupted`
 *                                   ─poll─▶ (nothing while any is open) ─▶ answers applied by resumes ─▶ RUN_STARTED, submit ─▶ …
 *                              found EXECUTING with no result (the poll died) → RUN_ERROR BACKGROUND_TOOL_RESULT_INDETERMINATE
 *
 * A poll holds a lease on the run (renewed while it works); every write names
 * the version it read, so a poll whose lease lapsed and was taken over can
 * never overwrite the poll that took over.
 */
export class BackgroundEngine {
  readonly #options: ResolvedServerOptions;
  readonly #agent: BackgroundAgent;
  /** The polls in flight on this instance, so {@link abandon} can stop them. */
  readonly #polls = new Set<AbortController>();
  #abandoned = false;

  constructor(options: ResolvedServerOptions, agent: BackgroundAgent) {
    this.#options = options;
    this.#agent = agent;
  }

  /**
   * Starts a run and answers 202 with its first token. A repeat under the same
   * `Idempotency-Key` (a retry after a lost answer) gets the run the first one
   * started, never a second run; another body under the key gets 422.
   */
  async start(
    input: RunAgentInput,
    raw: Buffer,
    key: string | undefined,
    pollPath: string,
    store: ContractStore = this.#options.store,
  ): Promise<BackgroundAnswer> {
    const { runId, threadId } = input;
    if (key !== undefined) {
      const bodyHash = createHash("sha256").update(raw).digest("hex");
      const record = await store.reserveKey({ key, bodyHash, runId, threadId });
      if (record.bodyHash !== bodyHash) {
        return error(
          422,
          OutcomeCode.IDEMPOTENCY_KEY_REUSED,
          "this Idempotency-Key was used with a different body; a new start needs a new key",
        );
      }
      const started = await store.background(record.runId);
      if (started !== undefined) return { status: 202, body: responseOf(started, 0) };
    }
    if ((await store.run(runId)) !== undefined) return runIdUsed();
    const token = this.#newToken();
    const start: BackgroundStart = { continuationToken: token, pollPath };
    const first: StoredFrame = {
      seq: 1,
      event: stampCursor(
        { type: "RUN_STARTED", threadId, runId, metadata: { [MetadataKey.background]: start } } as AgUiEvent,
        runId,
        1,
      ),
    };
    const created = await store.createBackground({
      runId,
      threadId,
      status: "queued",
      step: 0,
      token,
      finalToken: null,
      tokens: { [token]: 1 },
      input,
      calls: null,
      frames: [first],
      poll: null,
      error: null,
    });
    if (!created) {
      // Two starts under one key raced: the one that created the run answers for both.
      const winner = await store.background(runId);
      return winner === undefined || key === undefined
        ? runIdUsed()
        : { status: 202, body: responseOf(winner, 0) };
    }
    const run = await store.background(runId);
    return { status: 202, body: run === undefined ? null : responseOf(run, 0) };
  }

  /** Stops every poll in flight without writing again, as if the process died: their leases lapse. */
  abandon(): void {
    this.#abandoned = true;
    for (const poll of this.#polls) poll.abort();
  }

  /** `POST {base}/background/poll`: advances the run one step, or says why not. */
  async poll(
    raw: Buffer,
    store: ContractStore = this.#options.store,
    identity?: string,
  ): Promise<BackgroundAnswer> {
    const parsed = parsePollRequest(raw);
    if (!parsed.ok) return error(400, parsed.code, parsed.message);
    const token = parsed.token;
    const found = await store.backgroundByToken(token);
    if (found === undefined) {
      return error(
        404,
        OutcomeCode.BACKGROUND_TOKEN_UNKNOWN,
        "no background run holds this continuation token",
      );
    }
    const afterSeq = found.tokens[token] ?? 0;
    if (token !== found.token) {
      // The poll that ended the run may be repeated: its answer does not change.
      if (token === found.finalToken) return { status: 200, body: responseOf(found, afterSeq) };
      return error(
        409,
        OutcomeCode.BACKGROUND_TOKEN_STALE,
        "this continuation token was already advanced; poll with the newest one",
      );
    }
    const now = await store.now();
    if (found.poll !== null && found.poll.leaseUntil > now) return pollInProgress();
    if (found.status === "interrupted") {
      // Waiting for the person is read-only: no lease, no write, no events. The sweep
      // settles a resume that died mid-tool (INDETERMINATE), which nothing else would.
      await openQuestions(store, found);
      await store.sweep();
      const answers = readAnswers(
        found,
        await store.threadOccurrences(found.threadId),
        now,
        this.#options.randomUUID,
      );
      if (answers.kind === "waiting") return { status: 200, body: responseOf(found, afterSeq) };
    }
    const pollId = this.#options.randomUUID();
    let run: BackgroundRunRecord = {
      ...found,
      status: "in_progress",
      poll: { pollId, leaseUntil: now + this.#options.claimLeaseMs },
    };
    if (!(await store.updateBackground(run))) return pollInProgress();
    run = { ...run, version: run.version + 1 };

    const abort = new AbortController();
    this.#polls.add(abort);
    const stopRenewal = this.#options.clock.every(
      Math.max(10, Math.floor(this.#options.claimLeaseMs / 3)),
      () => {
        // A failed renewal lets the lease run down, as a dead poll's would.
        store.renewBackgroundPoll(found.runId, pollId, this.#options.claimLeaseMs).catch(() => {});
      },
    );
    const write = async (next: BackgroundRunRecord): Promise<BackgroundRunRecord> => {
      if (this.#abandoned) throw new PollLost();
      // The renewals moved the stored lease on; a write carries it on from now rather than back.
      const renewed =
        next.poll === null
          ? next
          : { ...next, poll: { pollId, leaseUntil: (await store.now()) + this.#options.claimLeaseMs } };
      if (!(await store.updateBackground(renewed))) throw new PollLost();
      return { ...renewed, version: renewed.version + 1 };
    };
    try {
      const step = await advance(run, {
        options: this.#options,
        agent: this.#agent,
        store,
        polledToken: token,
        signal: abort.signal,
        identity,
        write,
      });
      if (step.kind === "transient") {
        await write({ ...step.run, poll: null });
        return transient(step.message, step.status, step.retryAfterMs);
      }
      return { status: 200, body: responseOf(step.run, afterSeq) };
    } catch (caught) {
      if (caught instanceof PollLost) return pollInProgress();
      throw caught;
    } finally {
      stopRenewal();
      abort.abort();
      this.#polls.delete(abort);
    }
  }

  #newToken(): string {
    return newToken(this.#options.randomUUID);
  }
}
