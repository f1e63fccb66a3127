import type { ResumeResolution } from "../outcome/degraded-payload";
import { MetadataKey, type RunAgentInput } from "../protocol";

export interface ResumeBodyInput {
  readonly threadId: string;
  readonly runId: string;
  readonly interruptId: string;
  readonly idempotencyKey: string;
  readonly resolution: ResumeResolution;
}

/**
 * The exact bytes of a resume request. Built once, stored on the entry, and
 * sent unchanged by every retry: the server compares bodies byte for byte
 * under one idempotency key. `messages: []` because the server holds the
 * thread (and servers without the contract require it on a resume).
 */
export function buildResumeBody(input: ResumeBodyInput): string {
  const body: RunAgentInput = {
    threadId: input.threadId,
    runId: input.runId,
    state: {},
    messages: [],
    tools: [],
    context: [],
    resume: [
      {
        interruptId: input.interruptId,
        status: input.resolution.status,
        ...(input.resolution.status === "resolved" ? { payload: input.resolution.payload } : {}),
        metadata: { [MetadataKey.idempotencyKey]: input.idempotencyKey },
      },
    ],
  };
  return JSON.stringify(body);
}

/** The request body of a hydration: no messages and no resume replays the thread's snapshot. */
export function buildHydrationBody(threadId: string, runId: string): string {
  const body: RunAgentInput = { threadId, runId, state: {}, messages: [], tools: [], context: [] };
  return JSON.stringify(body);
}
