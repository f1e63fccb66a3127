import { buildResumeBody } from "../answer/build-resume-body";
import { decisionOf, sameDecision } from "../answer/decision";
import { checkAnswer, InvalidAnswerError } from "../answer/validate-answer";
import type { DeliveryEngine } from "../delivery/delivery-engine";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import type { OutboxEntry } from "../outbox/entry";
import type { OutboxStore } from "../outbox/outbox-store";
import { createEntry, DEFAULT_RETENTION_MS, reduceEntry } from "../outbox/reducer";
import { buildResumeResolution } from "../outcome/degraded-payload";
import type { ServerKind } from "../outcome/delivery-signal";
import type { TabMessage } from "../tabs/tab-message";
import type { ThreadRegistry } from "../thread/thread-registry";
import type { AnswerInput } from "./client-types";
import type { OutboxDeps } from "./deps";

export interface AnswerPathOptions {
  readonly namespace: string;
  readonly deps: OutboxDeps;
  readonly threads: ThreadRegistry;
  readonly retentionMs: number | undefined;
  readonly serverKind: () => ServerKind;
  /** False while the server kind is unknown: the body is then built at the first send. */
  readonly kindKnown: () => boolean;
  /** Starts the client; resolves with the open store and the loaded delivery. */
  readonly started: () => Promise<{ store: OutboxStore; engine: DeliveryEngine }>;
  readonly broadcast: (message: TabMessage) => void;
  /** Applies a change without announcing it (it is announced by its own message). */
  readonly silently: (apply: () => void) => void;
}

/**
 * `answer()`: validate, write durably with a fresh key, resolve once committed.
 * Sending starts in a later task.
 */
export function createAnswerPath(options: AnswerPathOptions): (input: AnswerInput) => Promise<OutboxEntry> {
  const { namespace, deps, threads } = options;
  return async function answer(input: AnswerInput): Promise<OutboxEntry> {
    const { store: opened, engine: running } = await options.started();
    const decision = decisionOf(input);
    const pending = threads.get(input.threadId).pendingInterrupts;
    const interrupt = pending.find((candidate) => candidate.id === input.interruptId);
    if (!interrupt) {
      const existing = running
        .entries()
        .find((entry) => entry.threadId === input.threadId && entry.interruptId === input.interruptId);
      if (existing && sameDecision(existing.decision, decision)) return existing;
      throw new OutboxError(
        ErrorKind.unknownInterrupt,
        `Interrupt ${input.interruptId} is not pending in thread ${input.threadId}; hydrate the thread first.`,
      );
    }
    // The payload is shaped for the server in front of us (contract or degraded
    // rules), and that exact payload is what the interrupt's schema must accept.
    // While the kind is unknown, either shape may be the one sent: one must fit.
    const kinds: readonly ServerKind[] = options.kindKnown()
      ? [options.serverKind()]
      : ["contract", "degraded"];
    const shaped = kinds.map((serverKind) =>
      buildResumeResolution(decision, { serverKind, responseSchema: interrupt.responseSchema }),
    );
    const checks = shaped.map((one) =>
      one.status === "resolved" ? checkAnswer(one.payload, interrupt.responseSchema) : undefined,
    );
    if (!checks.some((check) => check === undefined || check.valid)) {
      const first = checks[0];
      throw new InvalidAnswerError(first && !first.valid ? first.violations : []);
    }
    const resolution = shaped[0] ?? buildResumeResolution(decision, { serverKind: "contract" });
    // A run that asked several questions is answered in one resume: this answer
    // is held until the last of them is answered.
    const siblings = pending.map((candidate) => candidate.id).sort();
    const batch = siblings.length > 1 ? { interruptIds: siblings } : undefined;
    const key = deps.randomUUID();
    const runId = deps.randomUUID();
    const now = deps.now();
    const fresh = createEntry({
      key,
      namespace,
      threadId: input.threadId,
      interruptId: input.interruptId,
      runId,
      body:
        batch || !options.kindKnown()
          ? ""
          : buildResumeBody({
              threadId: input.threadId,
              runId,
              interruptId: input.interruptId,
              idempotencyKey: key,
              resolution,
            }),
      decision,
      now,
      retentionMs: options.retentionMs ?? DEFAULT_RETENTION_MS,
      ...(batch ? { batch } : {}),
    });
    const entry: OutboxEntry = {
      ...fresh,
      ...(interrupt.toolCallId ? { toolCallId: interrupt.toolCallId } : {}),
      ...(interrupt.responseSchema !== undefined ? { responseSchema: interrupt.responseSchema } : {}),
    };
    const result = await opened.putIfAbsentForInterrupt(entry);
    if (result.inserted) {
      // The write has committed: resolve now, with the entry already in the outbox
      // state. Telling the other tabs and starting the send (whose first step is
      // the durable `sending` write) wait for the next task, off the path of the
      // caller awaiting the commit.
      const inserted = result.entry;
      deps.timers.setTimeout(() => {
        options.broadcast({ type: "entry-added", key: inserted.key, entry: inserted });
      }, 0);
      options.silently(() => running.adopt(inserted, { sendAfterThisTask: true }));
      // The last answer of a run's questions seals them all into one request.
      return inserted.batch ? running.sealBatch(inserted) : inserted;
    }
    const existing = result.existing;
    running.adopt(existing);
    if (sameDecision(existing.decision, decision)) return existing;
    // Another answer for this interrupt is already on its way (this tab or another
    // one sharing the database): it wins. Keep this one, final, saying so.
    const elsewhere = reduceEntry(entry, {
      type: "verdict",
      at: now,
      verdict: {
        kind: "elsewhere",
        rule: "local-conflict",
        reason: "Another answer to this question was already sent from this browser; it takes precedence.",
        error: null,
        recordedDecisions: [],
      },
    });
    await opened.put(elsewhere);
    running.adopt(elsewhere);
    return elsewhere;
  };
}
