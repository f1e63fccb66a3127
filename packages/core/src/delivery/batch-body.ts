import type { AnswerValidator } from "../answer/answer-check";
import { loadAnswerValidator } from "../answer/answer-validator";
import { buildBatchResumeBody } from "../answer/build-resume-body";
import type { OutboxEntry } from "../outbox/entry";
import { buildResumeResolution, type ResumeResolution } from "../outcome/degraded-payload";
import type { ServerKind } from "../outcome/delivery-signal";
import type { Verdict } from "../outcome/verdict";

export type BuiltBody =
  | { readonly ok: true; readonly body: string }
  /** An answer whose payload, shaped for this server, its schema refuses. */
  | { readonly ok: false; readonly interruptId: string; readonly message: string };

/** One answer's resume resolution, shaped for `serverKind`. */
export function resolutionFor(entry: OutboxEntry, serverKind: ServerKind): ResumeResolution {
  return buildResumeResolution(entry.decision, { serverKind, responseSchema: entry.responseSchema });
}

/**
 * Where the validator cannot be fetched (a reload while offline) the check is skipped rather than
 * the delivery stalled: each answer was checked when given, and the server checks again.
 */
async function validator(): Promise<AnswerValidator | undefined> {
  try {
    return await loadAnswerValidator();
  } catch {
    return undefined;
  }
}

/** The exact bytes answering every question of `sender`'s run, in interrupt order, under its key and run. */
export async function buildBodyFor(
  sender: OutboxEntry,
  members: readonly OutboxEntry[],
  serverKind: ServerKind,
): Promise<BuiltBody> {
  const order = sender.batch?.interruptIds ?? [sender.interruptId];
  const answers: { interruptId: string; resolution: ResumeResolution }[] = [];
  for (const interruptId of order) {
    const member = members.find((candidate) => candidate.interruptId === interruptId);
    if (!member) return { ok: false, interruptId, message: `No answer for interrupt ${interruptId}.` };
    const resolution = resolutionFor(member, serverKind);
    const schema = member.responseSchema as Readonly<Record<string, unknown>> | undefined;
    const checkAnswer =
      resolution.status === "resolved" && schema !== undefined ? await validator() : undefined;
    if (checkAnswer && resolution.status === "resolved") {
      const check = checkAnswer(resolution.payload, schema);
      if (!check.valid) {
        return {
          ok: false,
          interruptId,
          message: "This server's schema refuses the answer as it is shaped for it.",
        };
      }
    }
    answers.push({ interruptId, resolution });
  }
  return {
    ok: true,
    body: buildBatchResumeBody({
      threadId: sender.threadId,
      runId: sender.runId,
      idempotencyKey: sender.key,
      answers,
    }),
  };
}

/** The verdict for a body this server's schema refuses: the person decides again. */
export function refusedBySchema(message: string): Verdict {
  return {
    kind: "needs_user",
    rule: "answer-refused-by-schema",
    reason: message,
    error: { kind: "invalid_answer", message },
    hydrate: false,
  };
}
