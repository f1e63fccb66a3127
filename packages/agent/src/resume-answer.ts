import type { AnswerInput } from "@agui-outbox/core";

/** One entry of `RunAgentInput.resume`, as apps and CopilotKit's `useInterrupt` build it. */
export interface ResumeEntryLike {
  readonly interruptId: string;
  readonly status: "resolved" | "cancelled";
  readonly payload?: unknown;
}

export type ReadResume =
  | { readonly ok: true; readonly answer: AnswerInput }
  | { readonly ok: false; readonly interruptId: string; readonly reason: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads a resume entry as the person's decision. The payload is the approval
 * shape the project's servers take (`{approved, editedArgs?, reason?}`; Agent
 * Framework's `accepted` is read as `approved`). The outbox then shapes it for
 * the server in front of it (the recovery contract or the degraded rules) and
 * checks it against the interrupt's `responseSchema`.
 */
export function readResumeEntry(threadId: string, entry: ResumeEntryLike): ReadResume {
  const { interruptId } = entry;
  if (entry.status === "cancelled") return { ok: true, answer: { threadId, interruptId, cancelled: true } };
  const payload = entry.payload;
  if (!isRecord(payload)) {
    return { ok: false, interruptId, reason: "The answer is not an object with `approved`." };
  }
  const approved = payload.approved ?? payload.accepted;
  if (typeof approved !== "boolean") {
    return { ok: false, interruptId, reason: "The answer has no boolean `approved`." };
  }
  if (approved) {
    const edited = payload.editedArgs;
    if (edited !== undefined && !isRecord(edited)) {
      return { ok: false, interruptId, reason: "`editedArgs` must be an object of tool arguments." };
    }
    return {
      ok: true,
      answer: edited
        ? { threadId, interruptId, approved, editedArgs: edited }
        : { threadId, interruptId, approved },
    };
  }
  const reason = payload.reason;
  if (reason !== undefined && typeof reason !== "string") {
    return { ok: false, interruptId, reason: "`reason` must be a string." };
  }
  return {
    ok: true,
    answer: reason ? { threadId, interruptId, approved, reason } : { threadId, interruptId, approved },
  };
}
