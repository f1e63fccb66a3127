import { InvalidAnswerError } from "../answer/answer-check";
import { loadAnswerValidator } from "../answer/answer-validator";
import { buildResumeBody } from "../answer/build-resume-body";
import { decisionOf, sameDecision } from "../answer/decision";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { isFinalState, type OutboxEntry } from "../outbox/entry";
import { questionOf } from "../outbox/entry-question";
import { createEntry, DEFAULT_RETENTION_MS, reduceEntry } from "../outbox/reducer";
import { buildResumeResolution } from "../outcome/degraded-payload";
import type { ServerKind } from "../outcome/delivery-signal";
import type { RecordedDecision } from "../protocol/extensions";
import type { TabMessage } from "../tabs/tab-message";
import type { ClientParts } from "./client-parts";
import type { AnswerInput } from "./client-types";
import { unshownQuestions } from "./unshown-questions";

const SCHEMA_FITS_OTHER_KIND = "the question's schema fits only the answers of another kind of server";

/** `answer()`: validate, write durably with a fresh key, resolve once committed; send later. */
export function createAnswerPath(parts: ClientParts): (input: AnswerInput) => Promise<OutboxEntry> {
  const { namespace, deps, threads, kind, tabs } = parts;
  return async function answer(input: AnswerInput): Promise<OutboxEntry> {
    const { store: opened, engine: running } = await parts.started();
    const decision = decisionOf(input);
    const shown = threads.get(input.threadId).pendingInterrupts;
    // With the questions a server keeps open unshown: answerable, and in the next batch.
    const pending = [
      ...shown,
      ...unshownQuestions(running.entriesOf(input.threadId), input.threadId, shown, input.interruptId),
    ];
    const interrupt = pending.find((candidate) => candidate.id === input.interruptId);
    if (!interrupt) {
      const existing = running
        .entriesOf(input.threadId)
        .find((entry) => entry.interruptId === input.interruptId);
      if (existing && sameDecision(existing.decision, decision)) return existing;
      throw new OutboxError(
        ErrorKind.unknownInterrupt,
        `Interrupt ${input.interruptId} is not pending in thread ${input.threadId}; hydrate the thread first.`,
      );
    }
    // The payload is shaped for the server in front of us, and that exact payload must fit
    // the schema. While the kind is unknown either shape may be sent: one must fit. Only a
    // question the other kind's shape fits means the server changed: the kind is read again.
    // The other shape is checked only when the first does not fit: one validation, not two.
    const inForce: ServerKind = kind.current() === "contract" ? "contract" : "degraded";
    const other: ServerKind = inForce === "contract" ? "degraded" : "contract";
    const shape = (serverKind: ServerKind) =>
      buildResumeResolution(decision, { serverKind, responseSchema: interrupt.responseSchema });
    const resolution = shape(inForce);
    // The validator is a chunk of its own, loaded only for a question with a schema.
    const checkAnswer = interrupt.responseSchema ? await loadAnswerValidator() : undefined;
    const check = (one: typeof resolution) =>
      one.status === "resolved" && checkAnswer
        ? checkAnswer(one.payload, interrupt.responseSchema)
        : undefined;
    const first = check(resolution);
    if (first !== undefined && !first.valid) {
      const second = check(shape(other));
      if (second !== undefined && !second.valid) throw new InvalidAnswerError(first.violations);
      if (kind.known()) kind.contradicted(SCHEMA_FITS_OTHER_KIND);
    }
    const kindKnown = kind.known();
    // A run's questions are answered in one resume: held until the last is answered.
    const siblings = pending.map((candidate) => candidate.id).sort();
    const batch = siblings.length > 1 ? { interruptIds: siblings } : undefined;
    const key = deps.randomUUID();
    const runId = deps.randomUUID();
    const now = batch ? afterEveryAnswerOf(batch, running.entriesOf(input.threadId), deps.now()) : deps.now();
    const fresh = createEntry({
      key,
      namespace,
      threadId: input.threadId,
      interruptId: input.interruptId,
      runId,
      body:
        batch || !kindKnown
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
      retentionMs: parts.options.retentionMs ?? DEFAULT_RETENTION_MS,
      ...(batch ? { batch } : {}),
    });
    const entry: OutboxEntry = {
      ...fresh,
      question: questionOf(interrupt, threads.get(input.threadId).messages),
      ...(interrupt.toolCallId ? { toolCallId: interrupt.toolCallId } : {}),
      ...(interrupt.responseSchema !== undefined ? { responseSchema: interrupt.responseSchema } : {}),
    };
    const result = await opened.putIfAbsentForInterrupt(entry);
    if (result.inserted) {
      // Committed: resolve now. Telling the other tabs and the first send wait for the
      // next task, off the path of the caller awaiting the commit.
      const inserted = result.entry;
      parts.ownKeys.add(inserted.key);
      const added: TabMessage = { type: "entry-added", key: inserted.key, entry: inserted };
      parts.tabSync.silently(() => running.adopt(inserted, { sendAfterThisTask: true }));
      if (tabs.state.leader) {
        deps.timers.setTimeout(() => tabs.broadcast(added), 0);
      } else {
        // A follower resolves only once the leader was told (or none listens): a
        // tab closed right after answering leaves nothing unsent behind.
        await tabs.announce(inserted.key, added);
      }
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
        // The decision that won, to show instead of this one.
        recordedDecisions: [recordedDecisionOf(existing)],
      },
    });
    parts.ownKeys.add(elsewhere.key);
    await opened.put(elsewhere);
    running.adopt(elsewhere);
    return elsewhere;
  };
}

/** The winning entry's decision as an outcome: approved or not, never its payload. */
function recordedDecisionOf(entry: OutboxEntry): RecordedDecision {
  const decision = entry.decision;
  if (decision.kind === "cancel") return { interruptId: entry.interruptId, status: "cancelled" };
  return {
    interruptId: entry.interruptId,
    status: "resolved",
    payload: { approved: decision.kind === "approve" },
  };
}

/** Timed after every known answer of the batch, so every tab finds the last answered alike. */
function afterEveryAnswerOf(
  batch: { readonly interruptIds: readonly string[] },
  entries: readonly OutboxEntry[],
  now: number,
): number {
  let latest = now;
  for (const entry of entries) {
    if (batch.interruptIds.includes(entry.interruptId) && !isFinalState(entry.state))
      latest = Math.max(latest, entry.createdAt + 1);
  }
  return latest;
}
