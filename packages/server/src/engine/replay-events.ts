import { type AgUiEvent, MetadataKey, type ResumeReplay } from "@agui-outbox/core/protocol";

/** What a replay needs of an outcome record (the mock server's and the library's both have it). */
export interface ReplaySource {
  readonly runId: string;
  readonly events: readonly AgUiEvent[];
}

/**
 * The recorded stream of a resolved occurrence, re-addressed to the run that
 * asked again: old cursors and the old claim ack are dropped, and the final
 * `RUN_FINISHED` says it is a replay of `originalRunId`.
 */
export function replayEvents(outcome: ReplaySource, runId: string, threadId: string): AgUiEvent[] {
  const marker: ResumeReplay = { replayed: true, originalRunId: outcome.runId };
  return outcome.events.map((event) => {
    const metadata: Record<string, unknown> = { ...(event.metadata ?? {}) };
    delete metadata[MetadataKey.stream];
    delete metadata[MetadataKey.resume];
    if (event.type === "RUN_STARTED") return { ...event, runId, threadId, metadata } as AgUiEvent;
    if (event.type === "RUN_FINISHED") {
      return {
        ...event,
        runId,
        threadId,
        metadata: { ...metadata, [MetadataKey.resume]: marker },
      } as AgUiEvent;
    }
    return { ...event, metadata } as AgUiEvent;
  });
}
