import type { ResumeResolution } from "../outcome/degraded-payload";
import { MetadataKey, type RunAgentInput } from "../protocol";

export interface ResumeBodyInput {
  readonly threadId: string;
  readonly runId: string;
  readonly interruptId: string;
  readonly idempotencyKey: string;
  readonly resolution: ResumeResolution;
}

export interface BatchResumeBodyInput {
  readonly threadId: string;
  readonly runId: string;
  readonly idempotencyKey: string;
  /** Every open interrupt of the run with its answer, in the order they are sent. */
  readonly answers: readonly { readonly interruptId: string; readonly resolution: ResumeResolution }[];
}

/**
 * The exact bytes of a resume, sent unchanged by every retry: the server compares bodies byte for
 * byte under one key. `messages: []`: the server holds the thread (servers without the contract require it).
 */
export function buildResumeBody(input: ResumeBodyInput): string {
  return buildBatchResumeBody({
    threadId: input.threadId,
    runId: input.runId,
    idempotencyKey: input.idempotencyKey,
    answers: [{ interruptId: input.interruptId, resolution: input.resolution }],
  });
}

/** One resume answering every open interrupt of a run (AG-UI requires them together), under one key. */
export function buildBatchResumeBody(input: BatchResumeBodyInput): string {
  const body: RunAgentInput = {
    threadId: input.threadId,
    runId: input.runId,
    state: {},
    messages: [],
    tools: [],
    context: [],
    resume: input.answers.map(({ interruptId, resolution }) => ({
      interruptId,
      status: resolution.status,
      ...(resolution.status === "resolved" ? { payload: resolution.payload } : {}),
      metadata: { [MetadataKey.idempotencyKey]: input.idempotencyKey },
    })),
  };
  return JSON.stringify(body);
}

/** The request body of a hydration: no messages and no resume replays the thread's snapshot. */
export function buildHydrationBody(threadId: string, runId: string): string {
  const body: RunAgentInput = { threadId, runId, state: {}, messages: [], tools: [], context: [] };
  return JSON.stringify(body);
}
