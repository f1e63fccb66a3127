import { AbstractAgent, type AgentConfig, type BaseEvent, type RunAgentInput } from "@ag-ui/client";
import {
  createOutboxClient,
  ErrorKind,
  isFinalState,
  isOutboxError,
  loadAnswerValidator,
  type OutboxClient,
  type OutboxClientOptions,
  type OutboxEntry,
  type PendingInterrupt,
} from "@agui-outbox/core";
import type { Observable } from "rxjs";
import {
  type AnswerVerdict,
  DurableEventName,
  DurableRunErrorCode,
  deliveryProgress,
  idempotencyKeyOf,
  type VerdictDetail,
  verdictDetail,
  verdictOfEntry,
} from "./agent-events";
import { projectRun, type RunBody, type RunEnd } from "./project-run";
import { readResumeEntry } from "./resume-answer";
import { settleEntries } from "./settle-entries";

export interface DurableHttpAgentConfig extends AgentConfig {
  /**
   * The AG-UI endpoint, for example `"/agent"`. Required unless `client` is given.
   */
  readonly url?: string;
  /**
   * Whose answers these are (the signed-in user); see `OutboxClientOptions.namespace`.
   * @default "default"
   */
  readonly namespace?: string;
  /**
   * An outbox client to share (with `@agui-outbox/react`, or between agents).
   * The agent then neither starts nor disposes it on its own behalf.
   */
  readonly client?: OutboxClient;
  /** Options for the client the agent creates when none is given (storage, retry, headers, deps…). */
  readonly clientOptions?: Omit<OutboxClientOptions, "url" | "namespace">;
}

/**
 * An `@ag-ui/client` agent whose answers to interrupts cannot be lost. Drop it
 * in wherever an `HttpAgent` goes — `runAgent`, `subscribe`, CopilotKit's
 * `selfManagedAgents={{ default: agent }}` — and:
 *
 * - `runAgent({ resume })` stores each answer in IndexedDB with an idempotency
 *   key before anything is sent, sends it (from the leader tab) with a fresh
 *   `runId` per decision and the same bytes on every retry, and the run ends
 *   with the server's verdict: `RUN_FINISHED` once applied, `RUN_ERROR` with a
 *   `DurableRunErrorCode` when answered elsewhere or lost, `RUN_FINISHED` with
 *   the interrupt still open when the person must answer again. A
 *   `CUSTOM agui-outbox.verdict` event per interrupt says which, and why.
 * - `runAgent()` with a new user message runs it, re-attaching with
 *   `Last-Event-ID` after a dropped stream and hydrating the thread when that
 *   is impossible.
 * - `connectAgent()` (CopilotKit calls it on mount) hydrates the thread from the
 *   server and follows any answer still in flight from before a reload to its
 *   verdict; an interrupt already answered is not shown as open again.
 *
 * Subscribers see one well-formed run per call (see `projectRun`). Stopping a
 * run (`detachActiveRun`, `abortRun`) never withdraws a stored answer.
 */
export class DurableHttpAgent extends AbstractAgent {
  // Plain fields, not `#private` ones: `AbstractAgent.clone()` copies an agent
  // field by field onto `Object.create(prototype)`, which private slots do not survive.
  /** The outbox behind the agent: entries, verdicts and connection state for the app to show. */
  client: OutboxClient;

  constructor(config: DurableHttpAgentConfig) {
    super(config);
    if (config.client) {
      this.client = config.client;
    } else {
      if (!config.url) throw new TypeError("DurableHttpAgent needs `url` (or a `client`).");
      this.client = createOutboxClient({
        ...config.clientOptions,
        url: config.url,
        namespace: config.namespace ?? "default",
      });
    }
  }

  override clone(): DurableHttpAgent {
    const copy = super.clone() as DurableHttpAgent;
    copy.client = this.client;
    return copy;
  }

  override run(input: RunAgentInput): Observable<BaseEvent> {
    const resume = input.resume ?? [];
    const body =
      resume.length > 0
        ? (run: RunBody) => this.#answer(input.threadId, resume, run)
        : () => this.#message(input);
    return projectRun({
      threadId: input.threadId,
      runId: input.runId,
      thread: this.client.thread(input.threadId).store,
      body,
    });
  }

  protected override connect(input: RunAgentInput): Observable<BaseEvent> {
    return projectRun({
      threadId: input.threadId,
      runId: input.runId,
      thread: this.client.thread(input.threadId).store,
      body: (run) => this.#reconnect(input.threadId, run),
    });
  }

  /** A user turn: the newest user message not yet in the thread is sent; none → the thread is refreshed. */
  async #message(input: RunAgentInput): Promise<RunEnd> {
    const thread = this.client.thread(input.threadId);
    await this.client.start();
    const known = new Set(thread.store.getState().messages.map((message) => message.id));
    const last = input.messages.at(-1);
    const text = last?.role === "user" && !known.has(last.id) ? textOf(last.content) : undefined;
    if (text === undefined) await thread.hydrate();
    else await thread.send(text);
    return { type: "finished", interrupts: this.#openInterrupts(input.threadId) };
  }

  /** A resume: every answer stored durably, then followed to its verdict. */
  async #answer(
    threadId: string,
    resume: NonNullable<RunAgentInput["resume"]>,
    run: RunBody,
  ): Promise<RunEnd> {
    await this.client.start();
    const refused: VerdictDetail[] = [];
    const keys: string[] = [];
    // Every entry read before any is stored: one unreadable entry stores none of them.
    const reads = resume.map((entry) => readResumeEntry(threadId, entry));
    const unreadable = reads.find((read) => !read.ok);
    if (unreadable && !unreadable.ok) {
      return { type: "error", message: unreadable.reason, code: DurableRunErrorCode.unreadableAnswer };
    }
    for (const read of reads) {
      if (!read.ok) continue;
      const entry = read.answer;
      try {
        keys.push((await this.client.answer(read.answer)).key);
      } catch (error) {
        if (!isOutboxError(error)) throw error;
        if (error.kind === ErrorKind.invalidAnswer) {
          // Nothing was stored: the person corrects the answer on the card shown again.
          refused.push(refusal(entry.interruptId, "invalid", error.message));
          continue;
        }
        if (error.kind !== ErrorKind.unknownInterrupt) {
          // Not stored (the validator could not load offline, storage refused the
          // write…): the card is shown again with the reason, never taken away.
          refused.push(refusal(entry.interruptId, "needs_you", error.message));
          continue;
        }
        // No longer open here. Answered already from this browser (another tab) with
        // another decision: that one won. Otherwise a stale card: hydrate, ask again.
        const earlier = this.client.entryFor(threadId, entry.interruptId);
        refused.push(
          earlier
            ? {
                ...refusal(entry.interruptId, "answered_elsewhere", elsewhereDetail(earlier)),
                key: earlier.key,
                idempotencyKey: idempotencyKeyOf(earlier),
              }
            : refusal(entry.interruptId, "needs_you", error.message),
        );
      }
    }
    return this.#follow(threadId, keys, refused, run);
  }

  /** After a reload or a thread switch: the thread as the server has it, and answers still in flight. */
  async #reconnect(threadId: string, run: RunBody): Promise<RunEnd> {
    await this.client.start();
    const inFlight = this.client.outbox
      .getState()
      .entries.filter((entry) => entry.threadId === threadId && !isFinalState(entry.state))
      .map((entry) => entry.key);
    const failed = await this.client
      .thread(threadId)
      .hydrate()
      .then(
        () => undefined,
        (error: unknown) => ({ error }),
      );
    if (inFlight.length === 0) {
      if (failed) throw failed.error;
      return { type: "finished", interrupts: this.#openInterrupts(threadId) };
    }
    // Answers are on their way: follow them (even when hydration failed, offline after
    // a reload), then read the thread again. The first hydration ran alongside the
    // delivery, and its snapshot may have landed after the delivery's own events.
    return this.#follow(threadId, inFlight, [], run, true);
  }

  async #follow(
    threadId: string,
    keys: readonly string[],
    refused: VerdictDetail[],
    run: RunBody,
    rehydrate = false,
  ): Promise<RunEnd> {
    const settled = await settleEntries(this.client.outbox, keys, (entry) =>
      run.custom(DurableEventName.delivery, deliveryProgress(entry)),
    );
    const verdicts = [...settled.map(verdictOf), ...refused];
    // Anything but "applied": the thread may have moved on (another decision, a
    // consumed interrupt, a stale card); show it as the server has it now.
    if (rehydrate || verdicts.some((verdict) => verdict.verdict !== "applied")) {
      await this.client
        .thread(threadId)
        .hydrate()
        // The verdicts above are already reported; a failed read leaves the thread as last seen.
        .catch(() => {});
    }
    for (const verdict of verdicts) run.custom(DurableEventName.verdict, verdict);
    return endOf(verdicts, this.#openInterrupts(threadId));
  }

  /**
   * The thread's open interrupts, less those with an answer on its way or
   * decided; one whose answer needs the person again stays open.
   */
  #openInterrupts(threadId: string): PendingInterrupt[] {
    const answered = new Set(
      this.client.outbox
        .getState()
        .entries.filter((entry) => entry.threadId === threadId && entry.state !== "needs_user")
        .map((entry) => entry.interruptId),
    );
    const open = this.client
      .thread(threadId)
      .store.getState()
      .pendingInterrupts.filter((interrupt) => !answered.has(interrupt.id));
    // The JSON-Schema validator is a chunk of its own: fetched now, while the card is
    // shown, so an answer given offline can still be checked and stored.
    // A failed prefetch is retried by answer(), which reports it (validator_unavailable).
    if (open.some((interrupt) => interrupt.responseSchema)) void loadAnswerValidator().catch(() => {});
    return open;
  }
}

function verdictOf(entry: OutboxEntry): VerdictDetail {
  return verdictDetail(entry, verdictOfEntry(entry) ?? "needs_you");
}

function elsewhereDetail(earlier: OutboxEntry): string {
  const decided =
    earlier.decision.kind === "approve"
      ? "approved"
      : earlier.decision.kind === "reject"
        ? "rejected"
        : "cancelled";
  return `This question was already answered from this browser (${decided}); that answer takes precedence.`;
}

function refusal(interruptId: string, verdict: AnswerVerdict, detail: string): VerdictDetail {
  return {
    interruptId,
    verdict,
    key: null,
    idempotencyKey: null,
    wireRunId: null,
    replayed: false,
    detail,
    recordedDecisions: null,
  };
}

/** A run that carried answers ends the way its answers did; the worst verdict decides. */
function endOf(verdicts: readonly VerdictDetail[], open: PendingInterrupt[]): RunEnd {
  const worst = (verdict: AnswerVerdict) => verdicts.find((candidate) => candidate.verdict === verdict);
  const lost = worst("lost");
  if (lost)
    return {
      type: "error",
      code: DurableRunErrorCode.lost,
      message: lost.detail ?? "The outcome is unknown.",
    };
  const elsewhere = worst("answered_elsewhere");
  if (elsewhere) {
    return {
      type: "error",
      code: DurableRunErrorCode.answeredElsewhere,
      message: elsewhere.detail ?? "Another answer to this question was applied first.",
    };
  }
  const expired = worst("expired");
  if (expired) {
    return {
      type: "error",
      code: DurableRunErrorCode.expired,
      message: expired.detail ?? "The answer expired.",
    };
  }
  return { type: "finished", interrupts: open };
}

function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content
    .map((part: unknown) =>
      typeof part === "object" && part !== null && (part as { type?: unknown }).type === "text"
        ? String((part as { text?: unknown }).text ?? "")
        : "",
    )
    .filter((text) => text.length > 0);
  return parts.length > 0 ? parts.join("\n") : undefined;
}
