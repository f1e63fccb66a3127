import type { AgUiEvent } from "../protocol";
import { ThreadDraft } from "./thread-draft";
import type { ThreadState } from "./thread-state";

/**
 * Folds one validated AG-UI event into a thread. Pure: the same events in the
 * same order always give the same state, which is what makes a re-attach that
 * replays from a cursor safe (the caller drops events at or below the cursor).
 * A stream folds many events into one `ThreadDraft` instead (ThreadRegistry);
 * this is that fold for a single event, and returns `state` itself when the
 * event changes nothing.
 */
export function applyEvent(state: ThreadState, event: AgUiEvent): ThreadState {
  const draft = new ThreadDraft(state);
  draft.apply(event);
  return draft.finish();
}

/** Whether the thread shows a result for a tool call: the evidence that an approved tool ran. */
export function hasToolResult(state: ThreadState, toolCallId: string): boolean {
  return state.messages.some((message) => message.role === "tool" && message.toolCallId === toolCallId);
}
