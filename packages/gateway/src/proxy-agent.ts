import { type AgUiEvent, OutcomeCode, type RunAgentInput } from "@agui-outbox/core/protocol";
import {
  type AgentHandler,
  type AgentTurn,
  type ApprovalReader,
  type ContractStore,
  scopedId,
  scopeStore,
} from "@agui-outbox/server";
import { type ApprovedCall, approvedCalls, CallEvidence } from "./evidence";
import { forwardedHeaders, responseHold } from "./request-context";
import { settleHold } from "./response-hold";
import type { ThreadLock } from "./thread-lock";
import { forwardRun } from "./upstream/forward-run";
import type { UpstreamPost } from "./upstream/upstream-post";
import { upstreamId } from "./upstream-ids";
import { publishedInterrupts, upstreamResume } from "./upstream-payload";

export interface ProxyDeps {
  /** The upstream's AG-UI run endpoint. */
  readonly upstream: string;
  readonly post: UpstreamPost;
  /** The gateway's store, unscoped; each turn reads it as its identity. */
  readonly store: ContractStore;
  readonly lock: ThreadLock;
  /** The server library's resolved settings (lease length, how approvals read), once it exists. */
  readonly settings: () => { readonly claimLeaseMs: number; readonly readApproval: ApprovalReader };
}

/** The request as the upstream receives it: the identity's ids (see `upstreamId`). */
export function upstreamInput(input: RunAgentInput, identity: string | undefined): RunAgentInput {
  return {
    ...input,
    threadId: upstreamId(identity, input.threadId),
    runId: upstreamId(identity, input.runId),
  };
}

/**
 * An upstream event as the gateway's run records it: lifecycle events carry
 * the caller's ids, interrupts ask in the contract's terms, and an upstream failure becomes a retryable
 * `SERVICE_UNAVAILABLE` (its own code means nothing to a contract client; what
 * the retry gets is decided by the record).
 */
function asRecorded(event: AgUiEvent, input: RunAgentInput, mayHaveRun: boolean): AgUiEvent {
  if (event.type === "RUN_STARTED" || event.type === "RUN_FINISHED") {
    return publishedInterrupts({ ...event, threadId: input.threadId, runId: input.runId } as AgUiEvent);
  }
  if (event.type === "RUN_ERROR") {
    const { code, message } = event as { code?: string; message: string };
    if (mayHaveRun && code === OutcomeCode.NOT_FOUND) {
      return {
        type: "RUN_ERROR",
        code: OutcomeCode.INDETERMINATE,
        message: `the upstream agent took an answer to this question before and may have run the tool: ${message}`,
      } as AgUiEvent;
    }
    return {
      type: "RUN_ERROR",
      code: OutcomeCode.UNAVAILABLE,
      message: `the upstream agent failed${code ? ` (${code})` : ""}: ${message}`,
    } as AgUiEvent;
  }
  return event;
}

const isCode = (event: AgUiEvent, code: string) =>
  event.type === "RUN_ERROR" && (event as { code?: string }).code === code;

/**
 * A retry whose approved tools all ran in an earlier attempt: their stored
 * results, and the run ends. A result this run's log already carries (an
 * attempt cut after it, on this replica or a dead one) is not sent twice: the
 * client re-attached through it or reads it there.
 */
function* answerFromRecord(
  calls: readonly ApprovedCall[],
  input: RunAgentInput,
  logged: ReadonlySet<string>,
): Generator<AgUiEvent> {
  for (const { occurrence } of calls) {
    const result = occurrence.result;
    if (result === null || logged.has(result.messageId)) continue;
    yield {
      type: "TOOL_CALL_RESULT",
      messageId: result.messageId,
      toolCallId: result.toolCallId,
      content: result.content,
      role: "tool",
    } as AgUiEvent;
  }
  yield {
    type: "RUN_FINISHED",
    threadId: input.threadId,
    runId: input.runId,
    outcome: { type: "success" },
  } as AgUiEvent;
}

async function* proxyTurn(deps: ProxyDeps, turn: AgentTurn): AsyncGenerator<AgUiEvent> {
  const { input, identity } = turn;
  const hold = responseHold(turn.request);
  const release = await deps.lock.acquire(scopedId(identity, input.threadId));
  try {
    const store = scopeStore(deps.store, identity);
    const { claimLeaseMs, readApproval } = deps.settings();
    const approved = await approvedCalls(store, turn, readApproval);
    // Sending it again could run it again (LangGraph would): the record already has what it did.
    if (approved.length > 0 && approved.every(({ occurrence }) => occurrence.result !== null)) {
      hold?.open();
      const frames = await store.frames(input.runId, 0);
      const logged = new Set(
        frames.flatMap(({ event }) =>
          event.type === "TOOL_CALL_RESULT" ? [(event as { messageId: string }).messageId] : [],
        ),
      );
      yield* answerFromRecord(approved, input, logged);
      return;
    }
    const occurrences = input.resume === undefined ? [] : await store.threadOccurrences(input.threadId);
    const evidence = new CallEvidence(store, input.runId, claimLeaseMs, approved);
    const events = forwardRun(deps.post, {
      url: deps.upstream,
      body: upstreamResume(upstreamInput(input, identity), occurrences),
      headers: forwardedHeaders(turn.request),
      onStatus: (status) => settleHold(hold, status),
      signal: turn.signal,
    });
    for await (const event of events) {
      // An upstream that refuses at once ran nothing; anything else may mean it is running the tool.
      // So may a NOT_FOUND: the gateway forwards only questions the upstream asked, so it took an
      // answer to it before (Agent Framework 1.0.1 runs the tool at ingress, then may fail).
      const consumed = isCode(event, OutcomeCode.NOT_FOUND);
      if (event.type !== "RUN_ERROR" || consumed) await evidence.began();
      await evidence.observe(event);
      yield asRecorded(event, input, approved.length > 0);
      if (event.type === "RUN_FINISHED" || event.type === "RUN_ERROR") return;
    }
  } finally {
    release();
  }
}

/**
 * The server library's agent, played by the upstream: each turn is forwarded
 * (one per thread at a time), and each approved call's evidence is written to
 * the store before the event carrying it is recorded and sent on.
 */
export function proxyAgent(deps: ProxyDeps): AgentHandler {
  return (turn) => proxyTurn(deps, turn);
}
