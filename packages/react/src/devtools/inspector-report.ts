import type { ConnectionState, OutboxEntry, OutboxState } from "@agui-outbox/core";
import type { TimelineStep, Timelines } from "./timeline";

export interface InspectorReportInput {
  readonly url: string;
  readonly namespace: string;
  readonly outbox: OutboxState;
  readonly connection: ConnectionState;
  readonly timelines: Timelines;
}

export interface InspectorReportOptions {
  /** Epoch ms the report is made at. */
  readonly now: number;
  /**
   * Put answer content in the report: the decision with its edits and reason,
   * the request body, the question asked, the decisions recorded elsewhere and
   * the namespace (often a user id). A bug report is shared: off unless the app
   * decides otherwise.
   * @default false
   */
  readonly includeAnswers?: boolean;
}

/** One entry as a bug report carries it. */
export interface ReportedEntry {
  readonly key: string;
  readonly threadId: string;
  readonly interruptId: string;
  readonly runId: string;
  readonly toolCallId?: string;
  /** approve, reject or cancel: what the person chose, never what they wrote. */
  readonly decision: OutboxEntry["decision"]["kind"];
  readonly state: OutboxEntry["state"];
  readonly attempts: number;
  readonly nextAttemptAt: number | null;
  readonly lastError: OutboxEntry["lastError"];
  readonly rule: string | null;
  readonly verdictDetail: string | null;
  readonly everSent: boolean;
  readonly replayed?: boolean;
  readonly resentAt?: number;
  readonly cursor: OutboxEntry["cursor"];
  readonly counters?: OutboxEntry["counters"];
  readonly batch?: OutboxEntry["batch"];
  readonly revision?: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly expiresAt: number;
  readonly timeline: readonly TimelineStep[];
  /** Only with `includeAnswers`. */
  readonly answer?: Pick<OutboxEntry, "decision" | "body" | "question" | "recordedDecisions">;
}

export interface InspectorReport {
  readonly format: "agui-outbox-inspector/1";
  readonly at: string;
  readonly url: string;
  /** Only with `includeAnswers`. */
  readonly namespace?: string;
  readonly connection: {
    readonly link: ConnectionState["link"]["name"];
    readonly linkReason?: string;
    readonly serverKind: ConnectionState["serverKind"];
    readonly serverKindFrom?: ConnectionState["serverKindFrom"];
    readonly online: boolean;
    /** "sending": this tab holds the lock and sends; "following": another tab does. */
    readonly tab: "sending" | "following";
  };
  readonly storage: {
    readonly ready: boolean;
    readonly durable: boolean;
    readonly error: string | null;
    /** Answers sealed with a key this page does not hold. */
    readonly sealed: number;
  };
  readonly entries: readonly ReportedEntry[];
}

function reported(entry: OutboxEntry, timeline: readonly TimelineStep[], withAnswer: boolean): ReportedEntry {
  // Listed field by field: a field added to the entry later stays out until someone decides it is safe.
  return {
    key: entry.key,
    threadId: entry.threadId,
    interruptId: entry.interruptId,
    runId: entry.runId,
    ...(entry.toolCallId === undefined ? {} : { toolCallId: entry.toolCallId }),
    decision: entry.decision.kind,
    state: entry.state,
    attempts: entry.attempts,
    nextAttemptAt: entry.nextAttemptAt,
    lastError: entry.lastError,
    rule: entry.rule ?? null,
    verdictDetail: entry.verdictDetail,
    everSent: entry.everSent,
    ...(entry.replayed === undefined ? {} : { replayed: entry.replayed }),
    ...(entry.resentAt === undefined ? {} : { resentAt: entry.resentAt }),
    cursor: entry.cursor,
    ...(entry.counters === undefined ? {} : { counters: entry.counters }),
    ...(entry.batch === undefined ? {} : { batch: entry.batch }),
    ...(entry.revision === undefined ? {} : { revision: entry.revision }),
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    expiresAt: entry.expiresAt,
    timeline,
    ...(withAnswer
      ? {
          answer: {
            decision: entry.decision,
            body: entry.body,
            ...(entry.question === undefined ? {} : { question: entry.question }),
            ...(entry.recordedDecisions === undefined ? {} : { recordedDecisions: entry.recordedDecisions }),
          },
        }
      : {}),
  };
}

/** What "Copy as JSON" puts on the clipboard: the outbox and the link, for a bug report. */
export function inspectorReport(
  input: InspectorReportInput,
  options: InspectorReportOptions,
): InspectorReport {
  const withAnswers = options.includeAnswers === true;
  const { connection, outbox } = input;
  const link = connection.link;
  return {
    format: "agui-outbox-inspector/1",
    at: new Date(options.now).toISOString(),
    url: input.url,
    ...(withAnswers ? { namespace: input.namespace } : {}),
    connection: {
      link: link.name,
      ...("reason" in link ? { linkReason: link.reason } : {}),
      serverKind: connection.serverKind,
      ...(connection.serverKindFrom === undefined ? {} : { serverKindFrom: connection.serverKindFrom }),
      online: connection.online,
      tab: connection.leader ? "sending" : "following",
    },
    storage: {
      ready: outbox.ready,
      durable: outbox.durable,
      error: outbox.storageError?.message ?? null,
      sealed: outbox.sealed.length,
    },
    entries: outbox.entries.map((entry) =>
      reported(entry, input.timelines.get(entry.key) ?? [], withAnswers),
    ),
  };
}
