import {
  type AgUiEvent,
  OutcomeCode,
  type ResumeEntry,
  type RunAgentInput,
} from "@agui-outbox/core/protocol";
import { canonicalJson } from "@agui-outbox/server";
import { threadOf } from "../agent/scripted-turns";
import { FaultPoint } from "../chaos/fault";
import { type Occurrence, OccurrenceState, occurrenceKey } from "../state/mock-state";
import {
  Aborted,
  ExceptionCode,
  emitStarted,
  invalid,
  missingInterrupt,
  notFound,
  ToolCutOff,
} from "./af-events";
import { type AfDecision, REJECTED_TOOL_RESULT, readLifecyclePayload } from "./af-payloads";
import type { AfShared, AfSink, ToolResult } from "./af-shared";

/** Agent Framework's in-process replay window for settled approvals. */
export const LIFECYCLE_REPLAY_WINDOW_MS = 900_000;

type LifecycleState = "claimed" | "executing" | "settled" | "indeterminate";

interface LifecycleRecord {
  state: LifecycleState;
  readonly decision: { readonly status: string; readonly payload: string };
  readonly read: AfDecision | null;
  result: ToolResult | null;
  settledAt: number;
}

/** One entry of the resume, with what the server keeps about its interrupt. */
interface Answer {
  readonly entry: ResumeEntry;
  readonly key: string;
  readonly decision: LifecycleRecord["decision"];
  record: LifecycleRecord | undefined;
}

/**
 * af-lifecycle (1.7.0): claim / executing / settled per occurrence, in memory
 * only (a restart forgets them). Every entry of a resume is taken, as 1.7.0
 * takes every approval response of the turn: the resume must answer every open
 * interrupt of the thread (`APPROVAL_RESUME_MISSING_INTERRUPT` names the first
 * left out), each approved call runs, and the results stream in the order of
 * the resume, before one model turn. An identical retry within 900 s replays
 * every settled result without a model turn.
 *
 * A resume that approves some calls and rejects others is not taken (measured
 * against 1.7.0, release check `batch-mixed`): nothing runs, the thread stores
 * the rejections, and the run finishes asking the rejected questions again under
 * their own ids. The approved questions stay pending and required in the next
 * resume, but hydration no longer shows them, and their approval is kept: a later
 * resume that approves anything runs them, whatever it says for them. A later
 * resume that rejects every call takes those rejections.
 */
export class AfLifecycle {
  readonly #shared: AfShared;
  readonly #records = new Map<string, LifecycleRecord>();
  /** Approvals of a mixed resume that was not taken, by occurrence key: 1.7.0 keeps them. */
  readonly #keptApprovals = new Map<string, AfDecision>();

  constructor(shared: AfShared) {
    this.#shared = shared;
  }

  reset(): void {
    this.#records.clear();
    this.#keptApprovals.clear();
  }

  async resume(
    input: RunAgentInput,
    resume: readonly ResumeEntry[],
    emit: (event: AgUiEvent) => void,
    alive: () => boolean,
    sink: AfSink,
  ): Promise<void> {
    const { threadId } = input;
    const shared = this.#shared;
    const now = shared.deps.options.clock.now();
    const answers: Answer[] = resume.map((entry) => {
      const key = occurrenceKey(threadId, entry.interruptId);
      let record = this.#records.get(key);
      if (record?.state === "settled" && record.settledAt + LIFECYCLE_REPLAY_WINDOW_MS <= now) {
        this.#records.delete(key);
        record = undefined;
      }
      const decision = { status: entry.status, payload: canonicalJson(entry.payload ?? null) };
      return { entry, key, decision, record };
    });
    if (answers.length === 0) return;
    if (answers.some((answer) => answer.record !== undefined)) {
      this.#answerSettled(input, answers, emit);
      return;
    }

    emitStarted(emit, input);
    const state = shared.deps.state();
    const occurrences: Occurrence[] = [];
    for (const { entry } of answers) {
      const id = entry.interruptId;
      const occurrence = state.occurrences[occurrenceKey(threadId, id)];
      if (occurrence === undefined || occurrence.state !== OccurrenceState.pending) {
        emit(notFound(id));
        return;
      }
      if (occurrence.expiresAt <= now) {
        occurrence.state = OccurrenceState.expired;
        shared.deps.save();
        emit(
          invalid(`Approval interrupt '${id}' expired at ${new Date(occurrence.expiresAt).toISOString()}`),
        );
        return;
      }
      occurrences.push(occurrence);
    }
    const answered = new Set(answers.map((answer) => answer.entry.interruptId));
    const omitted = Object.values(state.occurrences).find(
      (occurrence) =>
        occurrence.threadId === threadId &&
        !answered.has(occurrence.interruptId) &&
        occurrence.state === OccurrenceState.pending &&
        (occurrence.result !== null || occurrence.expiresAt > now),
    );
    if (omitted !== undefined) {
      emit(missingInterrupt(omitted.interruptId));
      return;
    }
    const reads = this.#decisionsOf(answers, occurrences);
    if (reads.some((read) => read?.approved) && reads.some((read) => !read?.approved)) {
      this.#askRejectedAgain(input, answers, occurrences, reads, emit);
      return;
    }
    if (await shared.fault(FaultPoint.beforeClaim, threadId)) {
      // The claim is released as safe to retry: the identical resume runs the tool.
      emit({
        type: "RUN_ERROR",
        code: OutcomeCode.TOOL_UNAVAILABLE,
        message: "Approved tool(s) deploy_change are temporarily unavailable; retry the approval later.",
      } as AgUiEvent);
      return;
    }
    const thread = threadOf(state, threadId, now);
    const records = answers.map((answer, index) => {
      const occurrence = occurrences[index] as Occurrence;
      const read = reads[index] ?? null;
      this.#keptApprovals.delete(answer.key);
      shared.hidden.delete(answer.key);
      // A rejection stored by a mixed resume gives way to what this one decides.
      thread.messages = thread.messages.filter(
        (message) => message.role !== "tool" || message.toolCallId !== occurrence.toolCallId,
      );
      const record: LifecycleRecord = {
        state: "claimed",
        decision: answer.decision,
        read,
        result: null,
        settledAt: 0,
      };
      this.#records.set(answer.key, record);
      occurrence.state = OccurrenceState.claimed;
      return record;
    });
    shared.deps.save();

    if (records.every((record) => record.read === null)) {
      for (const [index, record] of records.entries()) {
        this.#settle(record);
        (occurrences[index] as Occurrence).state = OccurrenceState.cancelled;
      }
      shared.deps.save();
      // As the single-answer path always did: a second RUN_STARTED before RUN_FINISHED.
      shared.finishCancelled(input, emit, false);
      return;
    }
    if (await shared.fault(FaultPoint.afterClaim, threadId)) {
      for (const [index, answer] of answers.entries()) {
        this.#records.delete(answer.key);
        (occurrences[index] as Occurrence).state = OccurrenceState.pending;
      }
      emit({
        type: "RUN_ERROR",
        code: ExceptionCode.tool,
        message: "the run failed after the claim",
      } as AgUiEvent);
      return;
    }
    for (const [index, record] of records.entries()) {
      if (!record.read?.approved) continue;
      record.state = "executing";
      try {
        record.result = await shared.executeOnce(
          occurrences[index] as Occurrence,
          record.read.args,
          alive,
          sink,
        );
      } catch (error) {
        if ((error instanceof Aborted && alive()) || error instanceof ToolCutOff)
          record.state = "indeterminate";
        throw error;
      }
    }
    // Settled before the model call, so a retry can reuse them; and, as Agent Framework
    // 1.7 does, already in the thread: a failing model call leaves them readable there.
    const calls = records.map((record, index) => {
      const occurrence = occurrences[index] as Occurrence;
      this.#settle(record);
      const read = record.read;
      occurrence.state =
        read === null
          ? OccurrenceState.cancelled
          : read.approved
            ? OccurrenceState.resolved
            : OccurrenceState.rejected;
      if (record.result !== null) shared.recordToolResult(threadId, occurrence, record.result);
      if (read !== null && !read.approved) shared.recordRejection(threadId, occurrence);
      return {
        occurrence,
        decision: read ?? { approved: false, args: occurrence.args },
        result: record.result,
      };
    });
    shared.deps.save();
    await shared.finishTurn(input, calls, emit, "af-lifecycle", true);
  }

  /**
   * Each answer's decision: what it says, except that an approval kept from a
   * mixed resume counts unless every answer of this one rejects (as 1.7.0 does).
   */
  #decisionsOf(answers: readonly Answer[], occurrences: readonly Occurrence[]): Array<AfDecision | null> {
    const said = answers.map((answer, index) =>
      answer.entry.status === "cancelled"
        ? null
        : readLifecyclePayload(answer.entry.payload, (occurrences[index] as Occurrence).args),
    );
    if (!said.some((read) => read?.approved)) return said;
    return said.map((read, index) =>
      read?.approved ? read : (this.#keptApprovals.get((answers[index] as Answer).key) ?? read),
    );
  }

  /** 1.7.0 given approvals and rejections at once: nothing runs, the rejected are asked again. */
  #askRejectedAgain(
    input: RunAgentInput,
    answers: readonly Answer[],
    occurrences: readonly Occurrence[],
    reads: ReadonlyArray<AfDecision | null>,
    emit: (event: AgUiEvent) => void,
  ): void {
    const { threadId, runId } = input;
    const shared = this.#shared;
    const thread = threadOf(shared.deps.state(), threadId, shared.deps.options.clock.now());
    const askedAgain: Occurrence[] = [];
    for (const [index, answer] of answers.entries()) {
      const occurrence = occurrences[index] as Occurrence;
      const read = reads[index];
      if (read?.approved) {
        this.#keptApprovals.set(answer.key, read);
        shared.hidden.add(answer.key);
        continue;
      }
      shared.hidden.delete(answer.key);
      askedAgain.push(occurrence);
      const stored = thread.messages.some(
        (message) =>
          message.role === "tool" &&
          message.toolCallId === occurrence.toolCallId &&
          message.content === REJECTED_TOOL_RESULT,
      );
      if (!stored) shared.recordRejection(threadId, occurrence);
    }
    shared.deps.save();
    emit({ type: "MESSAGES_SNAPSHOT", messages: thread.messages } as AgUiEvent);
    emit({
      type: "RUN_FINISHED",
      threadId,
      runId,
      outcome: { type: "interrupt", interrupts: askedAgain.map((occurrence) => occurrence.interrupt) },
    } as AgUiEvent);
  }

  /** A resume naming an interrupt the server already holds a decision for. */
  #answerSettled(input: RunAgentInput, answers: readonly Answer[], emit: (event: AgUiEvent) => void): void {
    const { threadId, runId } = input;
    emitStarted(emit, input);
    for (const { entry, record, decision } of answers) {
      const id = entry.interruptId;
      if (record === undefined || record.state === "claimed" || record.state === "executing") {
        emit(invalid(`Approval interrupt '${id}' is not pending: another request is processing it`));
        return;
      }
      if (record.state === "indeterminate") {
        emit(
          invalid(
            `Approval interrupt '${id}' is indeterminate: the client disconnected while the tool was running, so it may or may not have run`,
          ),
        );
        return;
      }
      if (record.decision.status !== decision.status || record.decision.payload !== decision.payload) {
        emit(
          invalid(`Approval resume for interrupt '${id}' conflicts with the decision already settled for it`),
        );
        return;
      }
    }
    const state = this.#shared.deps.state();
    // Identical retry within the window: the settled results again, without a model turn.
    for (const { entry, record } of answers) {
      const occurrence = state.occurrences[occurrenceKey(threadId, entry.interruptId)];
      if (occurrence === undefined) return;
      if (record?.result) {
        emit({
          type: "TOOL_CALL_RESULT",
          messageId: record.result.messageId,
          toolCallId: occurrence.toolCallId,
          content: record.result.content,
          role: "tool",
        } as AgUiEvent);
      }
    }
    emit({ type: "RUN_FINISHED", threadId, runId, outcome: { type: "success" } } as AgUiEvent);
  }

  #settle(record: LifecycleRecord): void {
    record.state = "settled";
    record.settledAt = this.#shared.deps.options.clock.now();
  }
}
