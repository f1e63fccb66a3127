import type { AgUiEvent } from "@agui-outbox/core/protocol";
import { type Hydrate, scopedId } from "@agui-outbox/server";
import type { ProxyDeps } from "./proxy-agent";
import { upstreamInput } from "./proxy-agent";
import { forwardedHeaders, responseHold } from "./request-context";
import { settleHold } from "./response-hold";
import { forwardRun } from "./upstream/forward-run";

const LIFECYCLE = new Set(["RUN_STARTED", "RUN_FINISHED", "RUN_ERROR"]);

/**
 * A hydration's body: the upstream's own view of the thread (its
 * `MESSAGES_SNAPSHOT`, where it sends one), asked with no messages and no
 * resume. The open interrupts and the run's end come from the record, so an
 * upstream that is down or refuses still leaves a hydration that answers.
 */
export function upstreamHydration(deps: ProxyDeps, timeoutMs: number): Hydrate {
  return async function* ({ input, identity, request }): AsyncGenerator<AgUiEvent> {
    const hold = responseHold(request);
    const release = await deps.lock.acquire(scopedId(identity, input.threadId));
    try {
      const events = forwardRun(deps.post, {
        url: deps.upstream,
        body: upstreamInput({ ...input, messages: [], resume: undefined }, identity),
        headers: forwardedHeaders(request),
        onStatus: (status) => settleHold(hold, status),
        signal: AbortSignal.timeout(timeoutMs),
      });
      for await (const event of events) {
        if (!LIFECYCLE.has(event.type)) yield event;
      }
    } catch {
      // The record's part of the hydration is still true; the upstream's is simply missing.
    } finally {
      release();
    }
  };
}
