/**
 * Every state the default card can be in, for each decision: the card gallery
 * (`/#gallery`) renders one card per case, and the end-to-end accessibility and
 * screenshot specs walk them all.
 */
import type { Decision, EntryError, EntryState, OutboxEntry, ThreadState } from "@agui-outbox/core";

/** The gallery's fixed "now": countdowns are computed against it, never the real clock. */
export const GALLERY_NOW = 1_800_000_000_000;

export const GALLERY_SCHEMA = {
  type: "object",
  properties: {
    approved: { type: "boolean" },
    editedArgs: {
      type: "object",
      properties: {
        target: { type: "string", minLength: 1, description: "Where to deploy." },
        replicas: { type: "integer", minimum: 1 },
        dryRun: { type: "boolean" },
      },
      required: ["target"],
      additionalProperties: false,
    },
  },
  required: ["approved"],
  additionalProperties: false,
} as const;

export const GALLERY_DECISIONS: Readonly<Record<string, Decision>> = {
  approve: { kind: "approve", editedArgs: { target: "staging" } },
  reject: { kind: "reject", reason: "Not during the release freeze" },
  cancel: { kind: "cancel" },
};

interface StateCase {
  readonly state: EntryState;
  /** Fields beyond the defaults; a function when they name the case's own question. */
  readonly extra?: Partial<OutboxEntry> | ((interruptId: string) => Partial<OutboxEntry>);
}

const http429: EntryError = { kind: "http", status: 429, message: "The agent answered HTTP 429." };

/** Each state, with the evidence that state is reached with. */
export const GALLERY_STATES: Readonly<Record<string, StateCase>> = {
  queued: { state: "queued", extra: { attempts: 0, everSent: false } },
  sending: { state: "sending" },
  streaming: { state: "streaming" },
  retry_wait: {
    state: "retry_wait",
    extra: { nextAttemptAt: GALLERY_NOW + 6_000, attempts: 1, lastError: http429 },
  },
  paused: { state: "paused" },
  // The run asked a second question, still unanswered: "1 of 2 answered".
  held: {
    state: "held",
    extra: (interruptId) => ({
      attempts: 0,
      everSent: false,
      batch: { interruptIds: [interruptId, `${interruptId}-second`] },
    }),
  },
  stalled: {
    state: "stalled",
    extra: {
      attempts: 12,
      verdictDetail: "Delivery kept failing on the server's side; it resumes when you retry or come back.",
      lastError: {
        kind: "retry_budget_exhausted",
        message: "Gave up for now after 12 failed answer(s) from the server.",
      },
    },
  },
  applied: { state: "applied" },
  "applied-replayed": { state: "applied", extra: { replayed: true } },
  elsewhere: {
    state: "elsewhere",
    extra: { recordedDecisions: [{ interruptId: "x", status: "resolved", payload: { approved: true } }] },
  },
  lost: {
    state: "lost",
    extra: {
      lastError: {
        kind: "run_error",
        code: "APPROVAL_RESUME_INDETERMINATE",
        message: "The tool was cut off.",
      },
    },
  },
  needs_user: {
    state: "needs_user",
    extra: {
      verdictDetail: "This question expired before your answer arrived. Your answer is kept.",
      lastError: { kind: "run_error", code: "APPROVAL_RESUME_EXPIRED", message: "The interrupt expired." },
    },
  },
  expired: { state: "expired" },
};

export interface GalleryCase {
  /** `unanswered`, or `<decision>-<state>`. */
  readonly name: string;
  readonly threadId: string;
  readonly interruptId: string;
  readonly entry: OutboxEntry | undefined;
  readonly thread: ThreadState;
}

function threadFor(threadId: string, interruptId: string, open: boolean): ThreadState {
  return {
    threadId,
    loaded: true,
    run: open
      ? { name: "interrupted", runId: `run-${threadId}` }
      : { name: "finished", runId: `run-${threadId}` },
    messages: [
      { id: `${threadId}-user`, role: "user", content: "please deploy to prod" },
      {
        id: `${threadId}-assistant`,
        role: "assistant",
        content: "I can do that.",
        toolCalls: [
          {
            id: interruptId,
            type: "function",
            function: { name: "deploy_change", arguments: JSON.stringify({ target: "prod", replicas: 2 }) },
          },
        ],
      },
    ],
    pendingInterrupts: [
      {
        id: interruptId,
        threadId,
        reason: "tool_call",
        toolCallId: interruptId,
        message: "Deploy to prod?",
        responseSchema: GALLERY_SCHEMA,
      },
    ],
  };
}

function entryFor(name: string, threadId: string, interruptId: string, decision: Decision, state: StateCase) {
  const entry: OutboxEntry = {
    key: `key-${name}`,
    namespace: "gallery",
    threadId,
    interruptId,
    toolCallId: interruptId,
    runId: `run-${name}`,
    body: "{}",
    decision,
    state: state.state,
    attempts: 1,
    nextAttemptAt: null,
    cursor: { runId: `run-${name}`, lastSeq: 0, acked: false },
    lastError: null,
    verdictDetail: null,
    everSent: true,
    createdAt: GALLERY_NOW - 60_000,
    updatedAt: GALLERY_NOW - 1_000,
    expiresAt: GALLERY_NOW + 82_800_000,
    ...(typeof state.extra === "function" ? state.extra(interruptId) : state.extra),
  };
  return entry;
}

function build(): GalleryCase[] {
  const cases: GalleryCase[] = [
    {
      name: "unanswered",
      threadId: "g-unanswered",
      interruptId: "call-unanswered",
      entry: undefined,
      thread: threadFor("g-unanswered", "call-unanswered", true),
    },
  ];
  for (const [decisionName, decision] of Object.entries(GALLERY_DECISIONS))
    for (const [stateName, state] of Object.entries(GALLERY_STATES)) {
      const name = `${decisionName}-${stateName}`;
      const threadId = `g-${name}`;
      const interruptId = `call-${name}`;
      cases.push({
        name,
        threadId,
        interruptId,
        entry: entryFor(name, threadId, interruptId, decision, state),
        thread: threadFor(threadId, interruptId, true),
      });
    }
  return cases;
}

export const GALLERY_CASES: readonly GalleryCase[] = build();
