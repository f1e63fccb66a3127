import * as z from "zod/mini";
export declare const OutboxEntrySchema: z.ZodMiniObject<{
    key: z.ZodMiniString<string>;
    namespace: z.ZodMiniString<string>;
    threadId: z.ZodMiniString<string>;
    interruptId: z.ZodMiniString<string>;
    toolCallId: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
    question: z.ZodMiniExactOptional<z.ZodMiniObject<{
        message: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
        toolName: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
        proposedArgs: z.ZodMiniExactOptional<z.ZodMiniRecord<z.ZodMiniString<string>, z.ZodMiniUnknown>>;
        responseSchema: z.ZodMiniExactOptional<z.ZodMiniRecord<z.ZodMiniString<string>, z.ZodMiniUnknown>>;
    }, z.core.$loose>>;
    runId: z.ZodMiniString<string>;
    body: z.ZodMiniString<string>;
    responseSchema: z.ZodMiniExactOptional<z.ZodMiniUnknown>;
    batch: z.ZodMiniExactOptional<z.ZodMiniObject<{
        interruptIds: z.ZodMiniArray<z.ZodMiniString<string>>;
        sendsWith: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
    }, z.core.$loose>>;
    counters: z.ZodMiniExactOptional<z.ZodMiniObject<{
        serverFailures: z.ZodMiniInt;
        reattachesWithoutProgress: z.ZodMiniInt;
        budgetChecks: z.ZodMiniInt;
        firstSentAt: z.ZodMiniNullable<z.ZodMiniNumber<number>>;
        failedReads: z.ZodMiniExactOptional<z.ZodMiniInt>;
        nothingRan: z.ZodMiniExactOptional<z.ZodMiniInt>;
    }, z.core.$loose>>;
    decision: z.ZodMiniDiscriminatedUnion<[z.ZodMiniObject<{
        kind: z.ZodMiniLiteral<"approve">;
        editedArgs: z.ZodMiniExactOptional<z.ZodMiniRecord<z.ZodMiniString<string>, z.ZodMiniUnknown>>;
        reason: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
    }, z.core.$loose>, z.ZodMiniObject<{
        kind: z.ZodMiniLiteral<"reject">;
        reason: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
    }, z.core.$loose>, z.ZodMiniObject<{
        kind: z.ZodMiniLiteral<"cancel">;
    }, z.core.$loose>], "kind">;
    state: z.ZodMiniEnum<{
        readonly queued: "queued";
        readonly sending: "sending";
        readonly streaming: "streaming";
        readonly retryWait: "retry_wait";
        readonly paused: "paused";
        readonly held: "held";
        readonly stalled: "stalled";
        readonly applied: "applied";
        readonly elsewhere: "elsewhere";
        readonly lost: "lost";
        readonly needsUser: "needs_user";
        readonly expired: "expired";
    }>;
    attempts: z.ZodMiniInt;
    nextAttemptAt: z.ZodMiniNullable<z.ZodMiniNumber<number>>;
    cursor: z.ZodMiniObject<{
        runId: z.ZodMiniString<string>;
        lastSeq: z.ZodMiniInt;
        acked: z.ZodMiniBoolean<boolean>;
    }, z.core.$loose>;
    lastError: z.ZodMiniNullable<z.ZodMiniObject<{
        kind: z.ZodMiniString<string>;
        code: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
        message: z.ZodMiniString<string>;
        status: z.ZodMiniExactOptional<z.ZodMiniNumber<number>>;
    }, z.core.$loose>>;
    verdictDetail: z.ZodMiniNullable<z.ZodMiniString<string>>;
    replayed: z.ZodMiniExactOptional<z.ZodMiniBoolean<boolean>>;
    recordedDecisions: z.ZodMiniExactOptional<z.ZodMiniArray<z.ZodMiniObject<{
        interruptId: z.ZodMiniString<string>;
        status: z.ZodMiniEnum<{
            resolved: "resolved";
            cancelled: "cancelled";
        }>;
        payload: z.ZodMiniOptional<z.ZodMiniUnknown>;
    }, z.core.$strip>>>;
    resentAt: z.ZodMiniExactOptional<z.ZodMiniNumber<number>>;
    everSent: z.ZodMiniBoolean<boolean>;
    createdAt: z.ZodMiniNumber<number>;
    updatedAt: z.ZodMiniNumber<number>;
    revision: z.ZodMiniExactOptional<z.ZodMiniInt>;
    expiresAt: z.ZodMiniNumber<number>;
}, z.core.$loose>;
/** Follower → leader requests; the follower never changes delivery state itself. */
export declare const TabRequestSchema: z.ZodMiniDiscriminatedUnion<[z.ZodMiniObject<{
    kind: z.ZodMiniLiteral<"retry-now">;
    key: z.ZodMiniString<string>;
}, z.core.$strip>, z.ZodMiniObject<{
    kind: z.ZodMiniLiteral<"retry-all">;
}, z.core.$strip>, z.ZodMiniObject<{
    kind: z.ZodMiniLiteral<"resume-after-auth">;
}, z.core.$strip>, z.ZodMiniObject<{
    kind: z.ZodMiniLiteral<"resume-background">;
}, z.core.$strip>], "kind">;
export declare const TabMessageSchema: z.ZodMiniDiscriminatedUnion<[z.ZodMiniObject<{
    type: z.ZodMiniLiteral<"entry-changed">;
    entry: z.ZodMiniObject<{
        key: z.ZodMiniString<string>;
        namespace: z.ZodMiniString<string>;
        threadId: z.ZodMiniString<string>;
        interruptId: z.ZodMiniString<string>;
        toolCallId: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
        question: z.ZodMiniExactOptional<z.ZodMiniObject<{
            message: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
            toolName: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
            proposedArgs: z.ZodMiniExactOptional<z.ZodMiniRecord<z.ZodMiniString<string>, z.ZodMiniUnknown>>;
            responseSchema: z.ZodMiniExactOptional<z.ZodMiniRecord<z.ZodMiniString<string>, z.ZodMiniUnknown>>;
        }, z.core.$loose>>;
        runId: z.ZodMiniString<string>;
        body: z.ZodMiniString<string>;
        responseSchema: z.ZodMiniExactOptional<z.ZodMiniUnknown>;
        batch: z.ZodMiniExactOptional<z.ZodMiniObject<{
            interruptIds: z.ZodMiniArray<z.ZodMiniString<string>>;
            sendsWith: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
        }, z.core.$loose>>;
        counters: z.ZodMiniExactOptional<z.ZodMiniObject<{
            serverFailures: z.ZodMiniInt;
            reattachesWithoutProgress: z.ZodMiniInt;
            budgetChecks: z.ZodMiniInt;
            firstSentAt: z.ZodMiniNullable<z.ZodMiniNumber<number>>;
            failedReads: z.ZodMiniExactOptional<z.ZodMiniInt>;
            nothingRan: z.ZodMiniExactOptional<z.ZodMiniInt>;
        }, z.core.$loose>>;
        decision: z.ZodMiniDiscriminatedUnion<[z.ZodMiniObject<{
            kind: z.ZodMiniLiteral<"approve">;
            editedArgs: z.ZodMiniExactOptional<z.ZodMiniRecord<z.ZodMiniString<string>, z.ZodMiniUnknown>>;
            reason: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
        }, z.core.$loose>, z.ZodMiniObject<{
            kind: z.ZodMiniLiteral<"reject">;
            reason: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
        }, z.core.$loose>, z.ZodMiniObject<{
            kind: z.ZodMiniLiteral<"cancel">;
        }, z.core.$loose>], "kind">;
        state: z.ZodMiniEnum<{
            readonly queued: "queued";
            readonly sending: "sending";
            readonly streaming: "streaming";
            readonly retryWait: "retry_wait";
            readonly paused: "paused";
            readonly held: "held";
            readonly stalled: "stalled";
            readonly applied: "applied";
            readonly elsewhere: "elsewhere";
            readonly lost: "lost";
            readonly needsUser: "needs_user";
            readonly expired: "expired";
        }>;
        attempts: z.ZodMiniInt;
        nextAttemptAt: z.ZodMiniNullable<z.ZodMiniNumber<number>>;
        cursor: z.ZodMiniObject<{
            runId: z.ZodMiniString<string>;
            lastSeq: z.ZodMiniInt;
            acked: z.ZodMiniBoolean<boolean>;
        }, z.core.$loose>;
        lastError: z.ZodMiniNullable<z.ZodMiniObject<{
            kind: z.ZodMiniString<string>;
            code: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
            message: z.ZodMiniString<string>;
            status: z.ZodMiniExactOptional<z.ZodMiniNumber<number>>;
        }, z.core.$loose>>;
        verdictDetail: z.ZodMiniNullable<z.ZodMiniString<string>>;
        replayed: z.ZodMiniExactOptional<z.ZodMiniBoolean<boolean>>;
        recordedDecisions: z.ZodMiniExactOptional<z.ZodMiniArray<z.ZodMiniObject<{
            interruptId: z.ZodMiniString<string>;
            status: z.ZodMiniEnum<{
                resolved: "resolved";
                cancelled: "cancelled";
            }>;
            payload: z.ZodMiniOptional<z.ZodMiniUnknown>;
        }, z.core.$strip>>>;
        resentAt: z.ZodMiniExactOptional<z.ZodMiniNumber<number>>;
        everSent: z.ZodMiniBoolean<boolean>;
        createdAt: z.ZodMiniNumber<number>;
        updatedAt: z.ZodMiniNumber<number>;
        revision: z.ZodMiniExactOptional<z.ZodMiniInt>;
        expiresAt: z.ZodMiniNumber<number>;
    }, z.core.$loose>;
}, z.core.$strip>, z.ZodMiniObject<{
    type: z.ZodMiniLiteral<"entry-added">;
    key: z.ZodMiniString<string>;
    entry: z.ZodMiniObject<{
        key: z.ZodMiniString<string>;
        namespace: z.ZodMiniString<string>;
        threadId: z.ZodMiniString<string>;
        interruptId: z.ZodMiniString<string>;
        toolCallId: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
        question: z.ZodMiniExactOptional<z.ZodMiniObject<{
            message: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
            toolName: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
            proposedArgs: z.ZodMiniExactOptional<z.ZodMiniRecord<z.ZodMiniString<string>, z.ZodMiniUnknown>>;
            responseSchema: z.ZodMiniExactOptional<z.ZodMiniRecord<z.ZodMiniString<string>, z.ZodMiniUnknown>>;
        }, z.core.$loose>>;
        runId: z.ZodMiniString<string>;
        body: z.ZodMiniString<string>;
        responseSchema: z.ZodMiniExactOptional<z.ZodMiniUnknown>;
        batch: z.ZodMiniExactOptional<z.ZodMiniObject<{
            interruptIds: z.ZodMiniArray<z.ZodMiniString<string>>;
            sendsWith: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
        }, z.core.$loose>>;
        counters: z.ZodMiniExactOptional<z.ZodMiniObject<{
            serverFailures: z.ZodMiniInt;
            reattachesWithoutProgress: z.ZodMiniInt;
            budgetChecks: z.ZodMiniInt;
            firstSentAt: z.ZodMiniNullable<z.ZodMiniNumber<number>>;
            failedReads: z.ZodMiniExactOptional<z.ZodMiniInt>;
            nothingRan: z.ZodMiniExactOptional<z.ZodMiniInt>;
        }, z.core.$loose>>;
        decision: z.ZodMiniDiscriminatedUnion<[z.ZodMiniObject<{
            kind: z.ZodMiniLiteral<"approve">;
            editedArgs: z.ZodMiniExactOptional<z.ZodMiniRecord<z.ZodMiniString<string>, z.ZodMiniUnknown>>;
            reason: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
        }, z.core.$loose>, z.ZodMiniObject<{
            kind: z.ZodMiniLiteral<"reject">;
            reason: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
        }, z.core.$loose>, z.ZodMiniObject<{
            kind: z.ZodMiniLiteral<"cancel">;
        }, z.core.$loose>], "kind">;
        state: z.ZodMiniEnum<{
            readonly queued: "queued";
            readonly sending: "sending";
            readonly streaming: "streaming";
            readonly retryWait: "retry_wait";
            readonly paused: "paused";
            readonly held: "held";
            readonly stalled: "stalled";
            readonly applied: "applied";
            readonly elsewhere: "elsewhere";
            readonly lost: "lost";
            readonly needsUser: "needs_user";
            readonly expired: "expired";
        }>;
        attempts: z.ZodMiniInt;
        nextAttemptAt: z.ZodMiniNullable<z.ZodMiniNumber<number>>;
        cursor: z.ZodMiniObject<{
            runId: z.ZodMiniString<string>;
            lastSeq: z.ZodMiniInt;
            acked: z.ZodMiniBoolean<boolean>;
        }, z.core.$loose>;
        lastError: z.ZodMiniNullable<z.ZodMiniObject<{
            kind: z.ZodMiniString<string>;
            code: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
            message: z.ZodMiniString<string>;
            status: z.ZodMiniExactOptional<z.ZodMiniNumber<number>>;
        }, z.core.$loose>>;
        verdictDetail: z.ZodMiniNullable<z.ZodMiniString<string>>;
        replayed: z.ZodMiniExactOptional<z.ZodMiniBoolean<boolean>>;
        recordedDecisions: z.ZodMiniExactOptional<z.ZodMiniArray<z.ZodMiniObject<{
            interruptId: z.ZodMiniString<string>;
            status: z.ZodMiniEnum<{
                resolved: "resolved";
                cancelled: "cancelled";
            }>;
            payload: z.ZodMiniOptional<z.ZodMiniUnknown>;
        }, z.core.$strip>>>;
        resentAt: z.ZodMiniExactOptional<z.ZodMiniNumber<number>>;
        everSent: z.ZodMiniBoolean<boolean>;
        createdAt: z.ZodMiniNumber<number>;
        updatedAt: z.ZodMiniNumber<number>;
        revision: z.ZodMiniExactOptional<z.ZodMiniInt>;
        expiresAt: z.ZodMiniNumber<number>;
    }, z.core.$loose>;
}, z.core.$strip>, z.ZodMiniObject<{
    type: z.ZodMiniLiteral<"entries-removed">;
    keys: z.ZodMiniArray<z.ZodMiniString<string>>;
}, z.core.$strip>, z.ZodMiniObject<{
    type: z.ZodMiniLiteral<"thread-events">;
    threadId: z.ZodMiniString<string>;
    events: z.ZodMiniArray<z.ZodMiniCustom<{
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.TEXT_MESSAGE_START;
        messageId: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
        role?: "developer" | "system" | "assistant" | "user" | undefined;
        name?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.TEXT_MESSAGE_CONTENT;
        messageId: string;
        delta: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.TEXT_MESSAGE_END;
        messageId: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.TEXT_MESSAGE_CHUNK;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
        messageId?: string | undefined;
        role?: "developer" | "system" | "assistant" | "user" | undefined;
        delta?: string | undefined;
        name?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.TOOL_CALL_START;
        toolCallId: string;
        toolCallName: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
        parentMessageId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.TOOL_CALL_ARGS;
        toolCallId: string;
        delta: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.TOOL_CALL_END;
        toolCallId: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.TOOL_CALL_CHUNK;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
        toolCallId?: string | undefined;
        toolCallName?: string | undefined;
        parentMessageId?: string | undefined;
        delta?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.TOOL_CALL_RESULT;
        messageId: string;
        toolCallId: string;
        content: string | ({
            [x: string]: unknown;
            type: "text";
            text: string;
            id?: string | undefined;
            metadata?: any;
        } | {
            [x: string]: unknown;
            type: "image";
            source: {
                [x: string]: unknown;
                type: "data";
                value: string;
                mimeType: string;
            } | {
                [x: string]: unknown;
                type: "url";
                value: string;
                mimeType?: string | undefined;
            } | {
                [x: string]: unknown;
                type: "file";
                value: string;
                provider?: string | undefined;
                mimeType?: string | undefined;
            };
            id?: string | undefined;
            metadata?: any;
        } | {
            [x: string]: unknown;
            type: "audio";
            source: {
                [x: string]: unknown;
                type: "data";
                value: string;
                mimeType: string;
            } | {
                [x: string]: unknown;
                type: "url";
                value: string;
                mimeType?: string | undefined;
            } | {
                [x: string]: unknown;
                type: "file";
                value: string;
                provider?: string | undefined;
                mimeType?: string | undefined;
            };
            id?: string | undefined;
            metadata?: any;
        } | {
            [x: string]: unknown;
            type: "video";
            source: {
                [x: string]: unknown;
                type: "data";
                value: string;
                mimeType: string;
            } | {
                [x: string]: unknown;
                type: "url";
                value: string;
                mimeType?: string | undefined;
            } | {
                [x: string]: unknown;
                type: "file";
                value: string;
                provider?: string | undefined;
                mimeType?: string | undefined;
            };
            id?: string | undefined;
            metadata?: any;
        } | {
            [x: string]: unknown;
            type: "document";
            source: {
                [x: string]: unknown;
                type: "data";
                value: string;
                mimeType: string;
            } | {
                [x: string]: unknown;
                type: "url";
                value: string;
                mimeType?: string | undefined;
            } | {
                [x: string]: unknown;
                type: "file";
                value: string;
                provider?: string | undefined;
                mimeType?: string | undefined;
            };
            id?: string | undefined;
            metadata?: any;
        })[];
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
        role?: "tool" | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.STATE_SNAPSHOT;
        snapshot: any;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.STATE_DELTA;
        delta: ({
            [x: string]: unknown;
            op: "add";
            path: string;
            value: any;
        } | {
            [x: string]: unknown;
            op: "remove";
            path: string;
        } | {
            [x: string]: unknown;
            op: "replace";
            path: string;
            value: any;
        } | {
            [x: string]: unknown;
            op: "move";
            from: string;
            path: string;
        } | {
            [x: string]: unknown;
            op: "copy";
            from: string;
            path: string;
        } | {
            [x: string]: unknown;
            op: "test";
            path: string;
            value: any;
        })[];
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.MESSAGES_SNAPSHOT;
        messages: ({
            [x: string]: unknown;
            id: string;
            role: "developer";
            content: string;
            subagentRunId?: string | undefined;
            name?: string | undefined;
            encryptedValue?: string | undefined;
            metadata?: Record<string, any> | undefined;
        } | {
            [x: string]: unknown;
            id: string;
            role: "system";
            content: string;
            subagentRunId?: string | undefined;
            name?: string | undefined;
            encryptedValue?: string | undefined;
            metadata?: Record<string, any> | undefined;
        } | {
            [x: string]: unknown;
            id: string;
            role: "assistant";
            subagentRunId?: string | undefined;
            name?: string | undefined;
            encryptedValue?: string | undefined;
            metadata?: Record<string, any> | undefined;
            content?: string | undefined;
            toolCalls?: {
                [x: string]: unknown;
                id: string;
                type: "function";
                function: {
                    [x: string]: unknown;
                    name: string;
                    arguments: string;
                };
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            }[] | undefined;
        } | {
            [x: string]: unknown;
            id: string;
            role: "user";
            content: string | ({
                [x: string]: unknown;
                type: "text";
                text: string;
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "image";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "audio";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "video";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "document";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            })[];
            subagentRunId?: string | undefined;
            name?: string | undefined;
            encryptedValue?: string | undefined;
            metadata?: Record<string, any> | undefined;
        } | {
            [x: string]: unknown;
            id: string;
            role: "tool";
            content: string | ({
                [x: string]: unknown;
                type: "text";
                text: string;
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "image";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "audio";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "video";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "document";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            })[];
            toolCallId: string;
            subagentRunId?: string | undefined;
            error?: string | undefined;
            encryptedValue?: string | undefined;
            metadata?: Record<string, any> | undefined;
        } | {
            [x: string]: unknown;
            id: string;
            role: "activity";
            activityType: string;
            content: Record<string, any>;
            subagentRunId?: string | undefined;
            metadata?: Record<string, any> | undefined;
        } | {
            [x: string]: unknown;
            id: string;
            role: "reasoning";
            content: string;
            subagentRunId?: string | undefined;
            encryptedValue?: string | undefined;
            metadata?: Record<string, any> | undefined;
        })[];
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.ACTIVITY_SNAPSHOT;
        messageId: string;
        activityType: string;
        content: Record<string, any>;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
        replace?: boolean | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.ACTIVITY_DELTA;
        messageId: string;
        activityType: string;
        patch: ({
            [x: string]: unknown;
            op: "add";
            path: string;
            value: any;
        } | {
            [x: string]: unknown;
            op: "remove";
            path: string;
        } | {
            [x: string]: unknown;
            op: "replace";
            path: string;
            value: any;
        } | {
            [x: string]: unknown;
            op: "move";
            from: string;
            path: string;
        } | {
            [x: string]: unknown;
            op: "copy";
            from: string;
            path: string;
        } | {
            [x: string]: unknown;
            op: "test";
            path: string;
            value: any;
        })[];
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.RAW;
        event: any;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
        source?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.CUSTOM;
        name: string;
        value: any;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.RUN_STARTED;
        threadId: string;
        runId: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        protocolVersion?: string | undefined;
        parentRunId?: string | undefined;
        input?: {
            [x: string]: unknown;
            threadId: string;
            runId: string;
            messages: ({
                [x: string]: unknown;
                id: string;
                role: "developer";
                content: string;
                subagentRunId?: string | undefined;
                name?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "system";
                content: string;
                subagentRunId?: string | undefined;
                name?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "assistant";
                subagentRunId?: string | undefined;
                name?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
                content?: string | undefined;
                toolCalls?: {
                    [x: string]: unknown;
                    id: string;
                    type: "function";
                    function: {
                        [x: string]: unknown;
                        name: string;
                        arguments: string;
                    };
                    encryptedValue?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                }[] | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "user";
                content: string | ({
                    [x: string]: unknown;
                    type: "text";
                    text: string;
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "image";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "audio";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "video";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "document";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                })[];
                subagentRunId?: string | undefined;
                name?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "tool";
                content: string | ({
                    [x: string]: unknown;
                    type: "text";
                    text: string;
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "image";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "audio";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "video";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "document";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                })[];
                toolCallId: string;
                subagentRunId?: string | undefined;
                error?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "activity";
                activityType: string;
                content: Record<string, any>;
                subagentRunId?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "reasoning";
                content: string;
                subagentRunId?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            })[];
            tools: {
                [x: string]: unknown;
                name: string;
                description: string;
                parameters?: any;
                metadata?: Record<string, any> | undefined;
            }[];
            context: {
                [x: string]: unknown;
                description: string;
                value: string;
            }[];
            protocolVersion?: string | undefined;
            parentRunId?: string | undefined;
            state?: any;
            forwardedProps?: any;
            resume?: {
                [x: string]: unknown;
                interruptId: string;
                status: "resolved" | "cancelled";
                payload?: any;
                metadata?: Record<string, any> | undefined;
            }[] | undefined;
        } | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.RUN_FINISHED;
        threadId: string;
        runId: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        result?: any;
        outcome?: {
            [x: string]: unknown;
            type: "success";
            pendingToolCallIds?: string[] | undefined;
        } | {
            [x: string]: unknown;
            type: "interrupt";
            interrupts: {
                [x: string]: unknown;
                id: string;
                reason: string;
                subagentRunId?: string | undefined;
                message?: string | undefined;
                toolCallId?: string | undefined;
                responseSchema?: Record<string, any> | undefined;
                expiresAt?: string | undefined;
                metadata?: Record<string, any> | undefined;
            }[];
        } | {
            [x: string]: unknown;
            type: "cancelled";
        } | undefined;
        usage?: {
            [x: string]: unknown;
            provider?: string | undefined;
            model?: string | undefined;
            inputTokens?: number | undefined;
            outputTokens?: number | undefined;
            totalTokens?: number | undefined;
            reasoningTokens?: number | undefined;
            cachedInputTokens?: number | undefined;
            cacheWriteInputTokens?: number | undefined;
        }[] | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.RUN_ERROR;
        message: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        code?: string | undefined;
        usage?: {
            [x: string]: unknown;
            provider?: string | undefined;
            model?: string | undefined;
            inputTokens?: number | undefined;
            outputTokens?: number | undefined;
            totalTokens?: number | undefined;
            reasoningTokens?: number | undefined;
            cachedInputTokens?: number | undefined;
            cacheWriteInputTokens?: number | undefined;
        }[] | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.STEP_STARTED;
        stepName: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.STEP_FINISHED;
        stepName: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.REASONING_START;
        messageId: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.REASONING_MESSAGE_START;
        messageId: string;
        role: "reasoning";
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.REASONING_MESSAGE_CONTENT;
        messageId: string;
        delta: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.REASONING_MESSAGE_END;
        messageId: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.REASONING_MESSAGE_CHUNK;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
        messageId?: string | undefined;
        delta?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.REASONING_END;
        messageId: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.REASONING_ENCRYPTED_VALUE;
        subtype: "message" | "tool-call";
        entityId: string;
        encryptedValue: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.SUBAGENT_STARTED;
        subagentRunId: string;
        name: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        description?: string | undefined;
        parentSubagentRunId?: string | undefined;
        parentToolCallId?: string | undefined;
        parentMessageId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.SUBAGENT_FINISHED;
        subagentRunId: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        result?: any;
        outcome?: {
            [x: string]: unknown;
            type: "success";
        } | {
            [x: string]: unknown;
            type: "suspended";
            interruptIds?: string[] | undefined;
        } | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.SUBAGENT_ERROR;
        subagentRunId: string;
        message: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        code?: string | undefined;
    }, {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.TEXT_MESSAGE_START;
        messageId: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
        role?: "developer" | "system" | "assistant" | "user" | undefined;
        name?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.TEXT_MESSAGE_CONTENT;
        messageId: string;
        delta: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.TEXT_MESSAGE_END;
        messageId: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.TEXT_MESSAGE_CHUNK;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
        messageId?: string | undefined;
        role?: "developer" | "system" | "assistant" | "user" | undefined;
        delta?: string | undefined;
        name?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.TOOL_CALL_START;
        toolCallId: string;
        toolCallName: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
        parentMessageId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.TOOL_CALL_ARGS;
        toolCallId: string;
        delta: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.TOOL_CALL_END;
        toolCallId: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.TOOL_CALL_CHUNK;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
        toolCallId?: string | undefined;
        toolCallName?: string | undefined;
        parentMessageId?: string | undefined;
        delta?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.TOOL_CALL_RESULT;
        messageId: string;
        toolCallId: string;
        content: string | ({
            [x: string]: unknown;
            type: "text";
            text: string;
            id?: string | undefined;
            metadata?: any;
        } | {
            [x: string]: unknown;
            type: "image";
            source: {
                [x: string]: unknown;
                type: "data";
                value: string;
                mimeType: string;
            } | {
                [x: string]: unknown;
                type: "url";
                value: string;
                mimeType?: string | undefined;
            } | {
                [x: string]: unknown;
                type: "file";
                value: string;
                provider?: string | undefined;
                mimeType?: string | undefined;
            };
            id?: string | undefined;
            metadata?: any;
        } | {
            [x: string]: unknown;
            type: "audio";
            source: {
                [x: string]: unknown;
                type: "data";
                value: string;
                mimeType: string;
            } | {
                [x: string]: unknown;
                type: "url";
                value: string;
                mimeType?: string | undefined;
            } | {
                [x: string]: unknown;
                type: "file";
                value: string;
                provider?: string | undefined;
                mimeType?: string | undefined;
            };
            id?: string | undefined;
            metadata?: any;
        } | {
            [x: string]: unknown;
            type: "video";
            source: {
                [x: string]: unknown;
                type: "data";
                value: string;
                mimeType: string;
            } | {
                [x: string]: unknown;
                type: "url";
                value: string;
                mimeType?: string | undefined;
            } | {
                [x: string]: unknown;
                type: "file";
                value: string;
                provider?: string | undefined;
                mimeType?: string | undefined;
            };
            id?: string | undefined;
            metadata?: any;
        } | {
            [x: string]: unknown;
            type: "document";
            source: {
                [x: string]: unknown;
                type: "data";
                value: string;
                mimeType: string;
            } | {
                [x: string]: unknown;
                type: "url";
                value: string;
                mimeType?: string | undefined;
            } | {
                [x: string]: unknown;
                type: "file";
                value: string;
                provider?: string | undefined;
                mimeType?: string | undefined;
            };
            id?: string | undefined;
            metadata?: any;
        })[];
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
        role?: "tool" | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.STATE_SNAPSHOT;
        snapshot: any;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.STATE_DELTA;
        delta: ({
            [x: string]: unknown;
            op: "add";
            path: string;
            value: any;
        } | {
            [x: string]: unknown;
            op: "remove";
            path: string;
        } | {
            [x: string]: unknown;
            op: "replace";
            path: string;
            value: any;
        } | {
            [x: string]: unknown;
            op: "move";
            from: string;
            path: string;
        } | {
            [x: string]: unknown;
            op: "copy";
            from: string;
            path: string;
        } | {
            [x: string]: unknown;
            op: "test";
            path: string;
            value: any;
        })[];
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.MESSAGES_SNAPSHOT;
        messages: ({
            [x: string]: unknown;
            id: string;
            role: "developer";
            content: string;
            subagentRunId?: string | undefined;
            name?: string | undefined;
            encryptedValue?: string | undefined;
            metadata?: Record<string, any> | undefined;
        } | {
            [x: string]: unknown;
            id: string;
            role: "system";
            content: string;
            subagentRunId?: string | undefined;
            name?: string | undefined;
            encryptedValue?: string | undefined;
            metadata?: Record<string, any> | undefined;
        } | {
            [x: string]: unknown;
            id: string;
            role: "assistant";
            subagentRunId?: string | undefined;
            name?: string | undefined;
            encryptedValue?: string | undefined;
            metadata?: Record<string, any> | undefined;
            content?: string | undefined;
            toolCalls?: {
                [x: string]: unknown;
                id: string;
                type: "function";
                function: {
                    [x: string]: unknown;
                    name: string;
                    arguments: string;
                };
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            }[] | undefined;
        } | {
            [x: string]: unknown;
            id: string;
            role: "user";
            content: string | ({
                [x: string]: unknown;
                type: "text";
                text: string;
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "image";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "audio";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "video";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "document";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            })[];
            subagentRunId?: string | undefined;
            name?: string | undefined;
            encryptedValue?: string | undefined;
            metadata?: Record<string, any> | undefined;
        } | {
            [x: string]: unknown;
            id: string;
            role: "tool";
            content: string | ({
                [x: string]: unknown;
                type: "text";
                text: string;
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "image";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "audio";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "video";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "document";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            })[];
            toolCallId: string;
            subagentRunId?: string | undefined;
            error?: string | undefined;
            encryptedValue?: string | undefined;
            metadata?: Record<string, any> | undefined;
        } | {
            [x: string]: unknown;
            id: string;
            role: "activity";
            activityType: string;
            content: Record<string, any>;
            subagentRunId?: string | undefined;
            metadata?: Record<string, any> | undefined;
        } | {
            [x: string]: unknown;
            id: string;
            role: "reasoning";
            content: string;
            subagentRunId?: string | undefined;
            encryptedValue?: string | undefined;
            metadata?: Record<string, any> | undefined;
        })[];
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.ACTIVITY_SNAPSHOT;
        messageId: string;
        activityType: string;
        content: Record<string, any>;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
        replace?: boolean | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.ACTIVITY_DELTA;
        messageId: string;
        activityType: string;
        patch: ({
            [x: string]: unknown;
            op: "add";
            path: string;
            value: any;
        } | {
            [x: string]: unknown;
            op: "remove";
            path: string;
        } | {
            [x: string]: unknown;
            op: "replace";
            path: string;
            value: any;
        } | {
            [x: string]: unknown;
            op: "move";
            from: string;
            path: string;
        } | {
            [x: string]: unknown;
            op: "copy";
            from: string;
            path: string;
        } | {
            [x: string]: unknown;
            op: "test";
            path: string;
            value: any;
        })[];
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.RAW;
        event: any;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
        source?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.CUSTOM;
        name: string;
        value: any;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.RUN_STARTED;
        threadId: string;
        runId: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        protocolVersion?: string | undefined;
        parentRunId?: string | undefined;
        input?: {
            [x: string]: unknown;
            threadId: string;
            runId: string;
            messages: ({
                [x: string]: unknown;
                id: string;
                role: "developer";
                content: string;
                subagentRunId?: string | undefined;
                name?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "system";
                content: string;
                subagentRunId?: string | undefined;
                name?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "assistant";
                subagentRunId?: string | undefined;
                name?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
                content?: string | undefined;
                toolCalls?: {
                    [x: string]: unknown;
                    id: string;
                    type: "function";
                    function: {
                        [x: string]: unknown;
                        name: string;
                        arguments: string;
                    };
                    encryptedValue?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                }[] | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "user";
                content: string | ({
                    [x: string]: unknown;
                    type: "text";
                    text: string;
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "image";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "audio";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "video";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "document";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                })[];
                subagentRunId?: string | undefined;
                name?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "tool";
                content: string | ({
                    [x: string]: unknown;
                    type: "text";
                    text: string;
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "image";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "audio";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "video";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "document";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                })[];
                toolCallId: string;
                subagentRunId?: string | undefined;
                error?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "activity";
                activityType: string;
                content: Record<string, any>;
                subagentRunId?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "reasoning";
                content: string;
                subagentRunId?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            })[];
            tools: {
                [x: string]: unknown;
                name: string;
                description: string;
                parameters?: any;
                metadata?: Record<string, any> | undefined;
            }[];
            context: {
                [x: string]: unknown;
                description: string;
                value: string;
            }[];
            protocolVersion?: string | undefined;
            parentRunId?: string | undefined;
            state?: any;
            forwardedProps?: any;
            resume?: {
                [x: string]: unknown;
                interruptId: string;
                status: "resolved" | "cancelled";
                payload?: any;
                metadata?: Record<string, any> | undefined;
            }[] | undefined;
        } | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.RUN_FINISHED;
        threadId: string;
        runId: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        result?: any;
        outcome?: {
            [x: string]: unknown;
            type: "success";
            pendingToolCallIds?: string[] | undefined;
        } | {
            [x: string]: unknown;
            type: "interrupt";
            interrupts: {
                [x: string]: unknown;
                id: string;
                reason: string;
                subagentRunId?: string | undefined;
                message?: string | undefined;
                toolCallId?: string | undefined;
                responseSchema?: Record<string, any> | undefined;
                expiresAt?: string | undefined;
                metadata?: Record<string, any> | undefined;
            }[];
        } | {
            [x: string]: unknown;
            type: "cancelled";
        } | undefined;
        usage?: {
            [x: string]: unknown;
            provider?: string | undefined;
            model?: string | undefined;
            inputTokens?: number | undefined;
            outputTokens?: number | undefined;
            totalTokens?: number | undefined;
            reasoningTokens?: number | undefined;
            cachedInputTokens?: number | undefined;
            cacheWriteInputTokens?: number | undefined;
        }[] | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.RUN_ERROR;
        message: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        code?: string | undefined;
        usage?: {
            [x: string]: unknown;
            provider?: string | undefined;
            model?: string | undefined;
            inputTokens?: number | undefined;
            outputTokens?: number | undefined;
            totalTokens?: number | undefined;
            reasoningTokens?: number | undefined;
            cachedInputTokens?: number | undefined;
            cacheWriteInputTokens?: number | undefined;
        }[] | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.STEP_STARTED;
        stepName: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.STEP_FINISHED;
        stepName: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.REASONING_START;
        messageId: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.REASONING_MESSAGE_START;
        messageId: string;
        role: "reasoning";
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.REASONING_MESSAGE_CONTENT;
        messageId: string;
        delta: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.REASONING_MESSAGE_END;
        messageId: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.REASONING_MESSAGE_CHUNK;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
        messageId?: string | undefined;
        delta?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.REASONING_END;
        messageId: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.REASONING_ENCRYPTED_VALUE;
        subtype: "message" | "tool-call";
        entityId: string;
        encryptedValue: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        subagentRunId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.SUBAGENT_STARTED;
        subagentRunId: string;
        name: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        description?: string | undefined;
        parentSubagentRunId?: string | undefined;
        parentToolCallId?: string | undefined;
        parentMessageId?: string | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.SUBAGENT_FINISHED;
        subagentRunId: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        result?: any;
        outcome?: {
            [x: string]: unknown;
            type: "success";
        } | {
            [x: string]: unknown;
            type: "suspended";
            interruptIds?: string[] | undefined;
        } | undefined;
    } | {
        [x: string]: unknown;
        type: import("@ag-ui/core").EventType.SUBAGENT_ERROR;
        subagentRunId: string;
        message: string;
        timestamp?: number | undefined;
        rawEvent?: any;
        metadata?: Record<string, any> | undefined;
        code?: string | undefined;
    }>>;
}, z.core.$strip>, z.ZodMiniObject<{
    type: z.ZodMiniLiteral<"entry-ack">;
    key: z.ZodMiniString<string>;
}, z.core.$strip>, z.ZodMiniObject<{
    type: z.ZodMiniLiteral<"background-changed">;
}, z.core.$strip>, z.ZodMiniObject<{
    type: z.ZodMiniLiteral<"leader">;
    tabId: z.ZodMiniString<string>;
}, z.core.$strip>, z.ZodMiniObject<{
    type: z.ZodMiniLiteral<"hello">;
}, z.core.$strip>, z.ZodMiniObject<{
    type: z.ZodMiniLiteral<"here">;
}, z.core.$strip>, z.ZodMiniObject<{
    type: z.ZodMiniLiteral<"bye">;
}, z.core.$strip>, z.ZodMiniObject<{
    type: z.ZodMiniLiteral<"request">;
    request: z.ZodMiniDiscriminatedUnion<[z.ZodMiniObject<{
        kind: z.ZodMiniLiteral<"retry-now">;
        key: z.ZodMiniString<string>;
    }, z.core.$strip>, z.ZodMiniObject<{
        kind: z.ZodMiniLiteral<"retry-all">;
    }, z.core.$strip>, z.ZodMiniObject<{
        kind: z.ZodMiniLiteral<"resume-after-auth">;
    }, z.core.$strip>, z.ZodMiniObject<{
        kind: z.ZodMiniLiteral<"resume-background">;
    }, z.core.$strip>], "kind">;
}, z.core.$strip>], "type">;
/** What travels on the channel: the message, who sent it, and for which namespace. */
export declare const TabEnvelopeSchema: z.ZodMiniObject<{
    protocol: z.ZodMiniLiteral<"agui-outbox/tabs">;
    version: z.ZodMiniLiteral<1>;
    from: z.ZodMiniString<string>;
    namespace: z.ZodMiniString<string>;
    message: z.ZodMiniDiscriminatedUnion<[z.ZodMiniObject<{
        type: z.ZodMiniLiteral<"entry-changed">;
        entry: z.ZodMiniObject<{
            key: z.ZodMiniString<string>;
            namespace: z.ZodMiniString<string>;
            threadId: z.ZodMiniString<string>;
            interruptId: z.ZodMiniString<string>;
            toolCallId: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
            question: z.ZodMiniExactOptional<z.ZodMiniObject<{
                message: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
                toolName: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
                proposedArgs: z.ZodMiniExactOptional<z.ZodMiniRecord<z.ZodMiniString<string>, z.ZodMiniUnknown>>;
                responseSchema: z.ZodMiniExactOptional<z.ZodMiniRecord<z.ZodMiniString<string>, z.ZodMiniUnknown>>;
            }, z.core.$loose>>;
            runId: z.ZodMiniString<string>;
            body: z.ZodMiniString<string>;
            responseSchema: z.ZodMiniExactOptional<z.ZodMiniUnknown>;
            batch: z.ZodMiniExactOptional<z.ZodMiniObject<{
                interruptIds: z.ZodMiniArray<z.ZodMiniString<string>>;
                sendsWith: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
            }, z.core.$loose>>;
            counters: z.ZodMiniExactOptional<z.ZodMiniObject<{
                serverFailures: z.ZodMiniInt;
                reattachesWithoutProgress: z.ZodMiniInt;
                budgetChecks: z.ZodMiniInt;
                firstSentAt: z.ZodMiniNullable<z.ZodMiniNumber<number>>;
                failedReads: z.ZodMiniExactOptional<z.ZodMiniInt>;
                nothingRan: z.ZodMiniExactOptional<z.ZodMiniInt>;
            }, z.core.$loose>>;
            decision: z.ZodMiniDiscriminatedUnion<[z.ZodMiniObject<{
                kind: z.ZodMiniLiteral<"approve">;
                editedArgs: z.ZodMiniExactOptional<z.ZodMiniRecord<z.ZodMiniString<string>, z.ZodMiniUnknown>>;
                reason: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
            }, z.core.$loose>, z.ZodMiniObject<{
                kind: z.ZodMiniLiteral<"reject">;
                reason: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
            }, z.core.$loose>, z.ZodMiniObject<{
                kind: z.ZodMiniLiteral<"cancel">;
            }, z.core.$loose>], "kind">;
            state: z.ZodMiniEnum<{
                readonly queued: "queued";
                readonly sending: "sending";
                readonly streaming: "streaming";
                readonly retryWait: "retry_wait";
                readonly paused: "paused";
                readonly held: "held";
                readonly stalled: "stalled";
                readonly applied: "applied";
                readonly elsewhere: "elsewhere";
                readonly lost: "lost";
                readonly needsUser: "needs_user";
                readonly expired: "expired";
            }>;
            attempts: z.ZodMiniInt;
            nextAttemptAt: z.ZodMiniNullable<z.ZodMiniNumber<number>>;
            cursor: z.ZodMiniObject<{
                runId: z.ZodMiniString<string>;
                lastSeq: z.ZodMiniInt;
                acked: z.ZodMiniBoolean<boolean>;
            }, z.core.$loose>;
            lastError: z.ZodMiniNullable<z.ZodMiniObject<{
                kind: z.ZodMiniString<string>;
                code: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
                message: z.ZodMiniString<string>;
                status: z.ZodMiniExactOptional<z.ZodMiniNumber<number>>;
            }, z.core.$loose>>;
            verdictDetail: z.ZodMiniNullable<z.ZodMiniString<string>>;
            replayed: z.ZodMiniExactOptional<z.ZodMiniBoolean<boolean>>;
            recordedDecisions: z.ZodMiniExactOptional<z.ZodMiniArray<z.ZodMiniObject<{
                interruptId: z.ZodMiniString<string>;
                status: z.ZodMiniEnum<{
                    resolved: "resolved";
                    cancelled: "cancelled";
                }>;
                payload: z.ZodMiniOptional<z.ZodMiniUnknown>;
            }, z.core.$strip>>>;
            resentAt: z.ZodMiniExactOptional<z.ZodMiniNumber<number>>;
            everSent: z.ZodMiniBoolean<boolean>;
            createdAt: z.ZodMiniNumber<number>;
            updatedAt: z.ZodMiniNumber<number>;
            revision: z.ZodMiniExactOptional<z.ZodMiniInt>;
            expiresAt: z.ZodMiniNumber<number>;
        }, z.core.$loose>;
    }, z.core.$strip>, z.ZodMiniObject<{
        type: z.ZodMiniLiteral<"entry-added">;
        key: z.ZodMiniString<string>;
        entry: z.ZodMiniObject<{
            key: z.ZodMiniString<string>;
            namespace: z.ZodMiniString<string>;
            threadId: z.ZodMiniString<string>;
            interruptId: z.ZodMiniString<string>;
            toolCallId: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
            question: z.ZodMiniExactOptional<z.ZodMiniObject<{
                message: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
                toolName: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
                proposedArgs: z.ZodMiniExactOptional<z.ZodMiniRecord<z.ZodMiniString<string>, z.ZodMiniUnknown>>;
                responseSchema: z.ZodMiniExactOptional<z.ZodMiniRecord<z.ZodMiniString<string>, z.ZodMiniUnknown>>;
            }, z.core.$loose>>;
            runId: z.ZodMiniString<string>;
            body: z.ZodMiniString<string>;
            responseSchema: z.ZodMiniExactOptional<z.ZodMiniUnknown>;
            batch: z.ZodMiniExactOptional<z.ZodMiniObject<{
                interruptIds: z.ZodMiniArray<z.ZodMiniString<string>>;
                sendsWith: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
            }, z.core.$loose>>;
            counters: z.ZodMiniExactOptional<z.ZodMiniObject<{
                serverFailures: z.ZodMiniInt;
                reattachesWithoutProgress: z.ZodMiniInt;
                budgetChecks: z.ZodMiniInt;
                firstSentAt: z.ZodMiniNullable<z.ZodMiniNumber<number>>;
                failedReads: z.ZodMiniExactOptional<z.ZodMiniInt>;
                nothingRan: z.ZodMiniExactOptional<z.ZodMiniInt>;
            }, z.core.$loose>>;
            decision: z.ZodMiniDiscriminatedUnion<[z.ZodMiniObject<{
                kind: z.ZodMiniLiteral<"approve">;
                editedArgs: z.ZodMiniExactOptional<z.ZodMiniRecord<z.ZodMiniString<string>, z.ZodMiniUnknown>>;
                reason: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
            }, z.core.$loose>, z.ZodMiniObject<{
                kind: z.ZodMiniLiteral<"reject">;
                reason: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
            }, z.core.$loose>, z.ZodMiniObject<{
                kind: z.ZodMiniLiteral<"cancel">;
            }, z.core.$loose>], "kind">;
            state: z.ZodMiniEnum<{
                readonly queued: "queued";
                readonly sending: "sending";
                readonly streaming: "streaming";
                readonly retryWait: "retry_wait";
                readonly paused: "paused";
                readonly held: "held";
                readonly stalled: "stalled";
                readonly applied: "applied";
                readonly elsewhere: "elsewhere";
                readonly lost: "lost";
                readonly needsUser: "needs_user";
                readonly expired: "expired";
            }>;
            attempts: z.ZodMiniInt;
            nextAttemptAt: z.ZodMiniNullable<z.ZodMiniNumber<number>>;
            cursor: z.ZodMiniObject<{
                runId: z.ZodMiniString<string>;
                lastSeq: z.ZodMiniInt;
                acked: z.ZodMiniBoolean<boolean>;
            }, z.core.$loose>;
            lastError: z.ZodMiniNullable<z.ZodMiniObject<{
                kind: z.ZodMiniString<string>;
                code: z.ZodMiniExactOptional<z.ZodMiniString<string>>;
                message: z.ZodMiniString<string>;
                status: z.ZodMiniExactOptional<z.ZodMiniNumber<number>>;
            }, z.core.$loose>>;
            verdictDetail: z.ZodMiniNullable<z.ZodMiniString<string>>;
            replayed: z.ZodMiniExactOptional<z.ZodMiniBoolean<boolean>>;
            recordedDecisions: z.ZodMiniExactOptional<z.ZodMiniArray<z.ZodMiniObject<{
                interruptId: z.ZodMiniString<string>;
                status: z.ZodMiniEnum<{
                    resolved: "resolved";
                    cancelled: "cancelled";
                }>;
                payload: z.ZodMiniOptional<z.ZodMiniUnknown>;
            }, z.core.$strip>>>;
            resentAt: z.ZodMiniExactOptional<z.ZodMiniNumber<number>>;
            everSent: z.ZodMiniBoolean<boolean>;
            createdAt: z.ZodMiniNumber<number>;
            updatedAt: z.ZodMiniNumber<number>;
            revision: z.ZodMiniExactOptional<z.ZodMiniInt>;
            expiresAt: z.ZodMiniNumber<number>;
        }, z.core.$loose>;
    }, z.core.$strip>, z.ZodMiniObject<{
        type: z.ZodMiniLiteral<"entries-removed">;
        keys: z.ZodMiniArray<z.ZodMiniString<string>>;
    }, z.core.$strip>, z.ZodMiniObject<{
        type: z.ZodMiniLiteral<"thread-events">;
        threadId: z.ZodMiniString<string>;
        events: z.ZodMiniArray<z.ZodMiniCustom<{
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.TEXT_MESSAGE_START;
            messageId: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
            role?: "developer" | "system" | "assistant" | "user" | undefined;
            name?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.TEXT_MESSAGE_CONTENT;
            messageId: string;
            delta: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.TEXT_MESSAGE_END;
            messageId: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.TEXT_MESSAGE_CHUNK;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
            messageId?: string | undefined;
            role?: "developer" | "system" | "assistant" | "user" | undefined;
            delta?: string | undefined;
            name?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.TOOL_CALL_START;
            toolCallId: string;
            toolCallName: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
            parentMessageId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.TOOL_CALL_ARGS;
            toolCallId: string;
            delta: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.TOOL_CALL_END;
            toolCallId: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.TOOL_CALL_CHUNK;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
            toolCallId?: string | undefined;
            toolCallName?: string | undefined;
            parentMessageId?: string | undefined;
            delta?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.TOOL_CALL_RESULT;
            messageId: string;
            toolCallId: string;
            content: string | ({
                [x: string]: unknown;
                type: "text";
                text: string;
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "image";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "audio";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "video";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "document";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            })[];
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
            role?: "tool" | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.STATE_SNAPSHOT;
            snapshot: any;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.STATE_DELTA;
            delta: ({
                [x: string]: unknown;
                op: "add";
                path: string;
                value: any;
            } | {
                [x: string]: unknown;
                op: "remove";
                path: string;
            } | {
                [x: string]: unknown;
                op: "replace";
                path: string;
                value: any;
            } | {
                [x: string]: unknown;
                op: "move";
                from: string;
                path: string;
            } | {
                [x: string]: unknown;
                op: "copy";
                from: string;
                path: string;
            } | {
                [x: string]: unknown;
                op: "test";
                path: string;
                value: any;
            })[];
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.MESSAGES_SNAPSHOT;
            messages: ({
                [x: string]: unknown;
                id: string;
                role: "developer";
                content: string;
                subagentRunId?: string | undefined;
                name?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "system";
                content: string;
                subagentRunId?: string | undefined;
                name?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "assistant";
                subagentRunId?: string | undefined;
                name?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
                content?: string | undefined;
                toolCalls?: {
                    [x: string]: unknown;
                    id: string;
                    type: "function";
                    function: {
                        [x: string]: unknown;
                        name: string;
                        arguments: string;
                    };
                    encryptedValue?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                }[] | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "user";
                content: string | ({
                    [x: string]: unknown;
                    type: "text";
                    text: string;
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "image";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "audio";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "video";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "document";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                })[];
                subagentRunId?: string | undefined;
                name?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "tool";
                content: string | ({
                    [x: string]: unknown;
                    type: "text";
                    text: string;
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "image";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "audio";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "video";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "document";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                })[];
                toolCallId: string;
                subagentRunId?: string | undefined;
                error?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "activity";
                activityType: string;
                content: Record<string, any>;
                subagentRunId?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "reasoning";
                content: string;
                subagentRunId?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            })[];
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.ACTIVITY_SNAPSHOT;
            messageId: string;
            activityType: string;
            content: Record<string, any>;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
            replace?: boolean | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.ACTIVITY_DELTA;
            messageId: string;
            activityType: string;
            patch: ({
                [x: string]: unknown;
                op: "add";
                path: string;
                value: any;
            } | {
                [x: string]: unknown;
                op: "remove";
                path: string;
            } | {
                [x: string]: unknown;
                op: "replace";
                path: string;
                value: any;
            } | {
                [x: string]: unknown;
                op: "move";
                from: string;
                path: string;
            } | {
                [x: string]: unknown;
                op: "copy";
                from: string;
                path: string;
            } | {
                [x: string]: unknown;
                op: "test";
                path: string;
                value: any;
            })[];
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.RAW;
            event: any;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
            source?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.CUSTOM;
            name: string;
            value: any;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.RUN_STARTED;
            threadId: string;
            runId: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            protocolVersion?: string | undefined;
            parentRunId?: string | undefined;
            input?: {
                [x: string]: unknown;
                threadId: string;
                runId: string;
                messages: ({
                    [x: string]: unknown;
                    id: string;
                    role: "developer";
                    content: string;
                    subagentRunId?: string | undefined;
                    name?: string | undefined;
                    encryptedValue?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                } | {
                    [x: string]: unknown;
                    id: string;
                    role: "system";
                    content: string;
                    subagentRunId?: string | undefined;
                    name?: string | undefined;
                    encryptedValue?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                } | {
                    [x: string]: unknown;
                    id: string;
                    role: "assistant";
                    subagentRunId?: string | undefined;
                    name?: string | undefined;
                    encryptedValue?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                    content?: string | undefined;
                    toolCalls?: {
                        [x: string]: unknown;
                        id: string;
                        type: "function";
                        function: {
                            [x: string]: unknown;
                            name: string;
                            arguments: string;
                        };
                        encryptedValue?: string | undefined;
                        metadata?: Record<string, any> | undefined;
                    }[] | undefined;
                } | {
                    [x: string]: unknown;
                    id: string;
                    role: "user";
                    content: string | ({
                        [x: string]: unknown;
                        type: "text";
                        text: string;
                        id?: string | undefined;
                        metadata?: any;
                    } | {
                        [x: string]: unknown;
                        type: "image";
                        source: {
                            [x: string]: unknown;
                            type: "data";
                            value: string;
                            mimeType: string;
                        } | {
                            [x: string]: unknown;
                            type: "url";
                            value: string;
                            mimeType?: string | undefined;
                        } | {
                            [x: string]: unknown;
                            type: "file";
                            value: string;
                            provider?: string | undefined;
                            mimeType?: string | undefined;
                        };
                        id?: string | undefined;
                        metadata?: any;
                    } | {
                        [x: string]: unknown;
                        type: "audio";
                        source: {
                            [x: string]: unknown;
                            type: "data";
                            value: string;
                            mimeType: string;
                        } | {
                            [x: string]: unknown;
                            type: "url";
                            value: string;
                            mimeType?: string | undefined;
                        } | {
                            [x: string]: unknown;
                            type: "file";
                            value: string;
                            provider?: string | undefined;
                            mimeType?: string | undefined;
                        };
                        id?: string | undefined;
                        metadata?: any;
                    } | {
                        [x: string]: unknown;
                        type: "video";
                        source: {
                            [x: string]: unknown;
                            type: "data";
                            value: string;
                            mimeType: string;
                        } | {
                            [x: string]: unknown;
                            type: "url";
                            value: string;
                            mimeType?: string | undefined;
                        } | {
                            [x: string]: unknown;
                            type: "file";
                            value: string;
                            provider?: string | undefined;
                            mimeType?: string | undefined;
                        };
                        id?: string | undefined;
                        metadata?: any;
                    } | {
                        [x: string]: unknown;
                        type: "document";
                        source: {
                            [x: string]: unknown;
                            type: "data";
                            value: string;
                            mimeType: string;
                        } | {
                            [x: string]: unknown;
                            type: "url";
                            value: string;
                            mimeType?: string | undefined;
                        } | {
                            [x: string]: unknown;
                            type: "file";
                            value: string;
                            provider?: string | undefined;
                            mimeType?: string | undefined;
                        };
                        id?: string | undefined;
                        metadata?: any;
                    })[];
                    subagentRunId?: string | undefined;
                    name?: string | undefined;
                    encryptedValue?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                } | {
                    [x: string]: unknown;
                    id: string;
                    role: "tool";
                    content: string | ({
                        [x: string]: unknown;
                        type: "text";
                        text: string;
                        id?: string | undefined;
                        metadata?: any;
                    } | {
                        [x: string]: unknown;
                        type: "image";
                        source: {
                            [x: string]: unknown;
                            type: "data";
                            value: string;
                            mimeType: string;
                        } | {
                            [x: string]: unknown;
                            type: "url";
                            value: string;
                            mimeType?: string | undefined;
                        } | {
                            [x: string]: unknown;
                            type: "file";
                            value: string;
                            provider?: string | undefined;
                            mimeType?: string | undefined;
                        };
                        id?: string | undefined;
                        metadata?: any;
                    } | {
                        [x: string]: unknown;
                        type: "audio";
                        source: {
                            [x: string]: unknown;
                            type: "data";
                            value: string;
                            mimeType: string;
                        } | {
                            [x: string]: unknown;
                            type: "url";
                            value: string;
                            mimeType?: string | undefined;
                        } | {
                            [x: string]: unknown;
                            type: "file";
                            value: string;
                            provider?: string | undefined;
                            mimeType?: string | undefined;
                        };
                        id?: string | undefined;
                        metadata?: any;
                    } | {
                        [x: string]: unknown;
                        type: "video";
                        source: {
                            [x: string]: unknown;
                            type: "data";
                            value: string;
                            mimeType: string;
                        } | {
                            [x: string]: unknown;
                            type: "url";
                            value: string;
                            mimeType?: string | undefined;
                        } | {
                            [x: string]: unknown;
                            type: "file";
                            value: string;
                            provider?: string | undefined;
                            mimeType?: string | undefined;
                        };
                        id?: string | undefined;
                        metadata?: any;
                    } | {
                        [x: string]: unknown;
                        type: "document";
                        source: {
                            [x: string]: unknown;
                            type: "data";
                            value: string;
                            mimeType: string;
                        } | {
                            [x: string]: unknown;
                            type: "url";
                            value: string;
                            mimeType?: string | undefined;
                        } | {
                            [x: string]: unknown;
                            type: "file";
                            value: string;
                            provider?: string | undefined;
                            mimeType?: string | undefined;
                        };
                        id?: string | undefined;
                        metadata?: any;
                    })[];
                    toolCallId: string;
                    subagentRunId?: string | undefined;
                    error?: string | undefined;
                    encryptedValue?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                } | {
                    [x: string]: unknown;
                    id: string;
                    role: "activity";
                    activityType: string;
                    content: Record<string, any>;
                    subagentRunId?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                } | {
                    [x: string]: unknown;
                    id: string;
                    role: "reasoning";
                    content: string;
                    subagentRunId?: string | undefined;
                    encryptedValue?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                })[];
                tools: {
                    [x: string]: unknown;
                    name: string;
                    description: string;
                    parameters?: any;
                    metadata?: Record<string, any> | undefined;
                }[];
                context: {
                    [x: string]: unknown;
                    description: string;
                    value: string;
                }[];
                protocolVersion?: string | undefined;
                parentRunId?: string | undefined;
                state?: any;
                forwardedProps?: any;
                resume?: {
                    [x: string]: unknown;
                    interruptId: string;
                    status: "resolved" | "cancelled";
                    payload?: any;
                    metadata?: Record<string, any> | undefined;
                }[] | undefined;
            } | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.RUN_FINISHED;
            threadId: string;
            runId: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            result?: any;
            outcome?: {
                [x: string]: unknown;
                type: "success";
                pendingToolCallIds?: string[] | undefined;
            } | {
                [x: string]: unknown;
                type: "interrupt";
                interrupts: {
                    [x: string]: unknown;
                    id: string;
                    reason: string;
                    subagentRunId?: string | undefined;
                    message?: string | undefined;
                    toolCallId?: string | undefined;
                    responseSchema?: Record<string, any> | undefined;
                    expiresAt?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                }[];
            } | {
                [x: string]: unknown;
                type: "cancelled";
            } | undefined;
            usage?: {
                [x: string]: unknown;
                provider?: string | undefined;
                model?: string | undefined;
                inputTokens?: number | undefined;
                outputTokens?: number | undefined;
                totalTokens?: number | undefined;
                reasoningTokens?: number | undefined;
                cachedInputTokens?: number | undefined;
                cacheWriteInputTokens?: number | undefined;
            }[] | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.RUN_ERROR;
            message: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            code?: string | undefined;
            usage?: {
                [x: string]: unknown;
                provider?: string | undefined;
                model?: string | undefined;
                inputTokens?: number | undefined;
                outputTokens?: number | undefined;
                totalTokens?: number | undefined;
                reasoningTokens?: number | undefined;
                cachedInputTokens?: number | undefined;
                cacheWriteInputTokens?: number | undefined;
            }[] | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.STEP_STARTED;
            stepName: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.STEP_FINISHED;
            stepName: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.REASONING_START;
            messageId: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.REASONING_MESSAGE_START;
            messageId: string;
            role: "reasoning";
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.REASONING_MESSAGE_CONTENT;
            messageId: string;
            delta: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.REASONING_MESSAGE_END;
            messageId: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.REASONING_MESSAGE_CHUNK;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
            messageId?: string | undefined;
            delta?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.REASONING_END;
            messageId: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.REASONING_ENCRYPTED_VALUE;
            subtype: "message" | "tool-call";
            entityId: string;
            encryptedValue: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.SUBAGENT_STARTED;
            subagentRunId: string;
            name: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            description?: string | undefined;
            parentSubagentRunId?: string | undefined;
            parentToolCallId?: string | undefined;
            parentMessageId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.SUBAGENT_FINISHED;
            subagentRunId: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            result?: any;
            outcome?: {
                [x: string]: unknown;
                type: "success";
            } | {
                [x: string]: unknown;
                type: "suspended";
                interruptIds?: string[] | undefined;
            } | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.SUBAGENT_ERROR;
            subagentRunId: string;
            message: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            code?: string | undefined;
        }, {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.TEXT_MESSAGE_START;
            messageId: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
            role?: "developer" | "system" | "assistant" | "user" | undefined;
            name?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.TEXT_MESSAGE_CONTENT;
            messageId: string;
            delta: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.TEXT_MESSAGE_END;
            messageId: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.TEXT_MESSAGE_CHUNK;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
            messageId?: string | undefined;
            role?: "developer" | "system" | "assistant" | "user" | undefined;
            delta?: string | undefined;
            name?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.TOOL_CALL_START;
            toolCallId: string;
            toolCallName: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
            parentMessageId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.TOOL_CALL_ARGS;
            toolCallId: string;
            delta: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.TOOL_CALL_END;
            toolCallId: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.TOOL_CALL_CHUNK;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
            toolCallId?: string | undefined;
            toolCallName?: string | undefined;
            parentMessageId?: string | undefined;
            delta?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.TOOL_CALL_RESULT;
            messageId: string;
            toolCallId: string;
            content: string | ({
                [x: string]: unknown;
                type: "text";
                text: string;
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "image";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "audio";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "video";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            } | {
                [x: string]: unknown;
                type: "document";
                source: {
                    [x: string]: unknown;
                    type: "data";
                    value: string;
                    mimeType: string;
                } | {
                    [x: string]: unknown;
                    type: "url";
                    value: string;
                    mimeType?: string | undefined;
                } | {
                    [x: string]: unknown;
                    type: "file";
                    value: string;
                    provider?: string | undefined;
                    mimeType?: string | undefined;
                };
                id?: string | undefined;
                metadata?: any;
            })[];
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
            role?: "tool" | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.STATE_SNAPSHOT;
            snapshot: any;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.STATE_DELTA;
            delta: ({
                [x: string]: unknown;
                op: "add";
                path: string;
                value: any;
            } | {
                [x: string]: unknown;
                op: "remove";
                path: string;
            } | {
                [x: string]: unknown;
                op: "replace";
                path: string;
                value: any;
            } | {
                [x: string]: unknown;
                op: "move";
                from: string;
                path: string;
            } | {
                [x: string]: unknown;
                op: "copy";
                from: string;
                path: string;
            } | {
                [x: string]: unknown;
                op: "test";
                path: string;
                value: any;
            })[];
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.MESSAGES_SNAPSHOT;
            messages: ({
                [x: string]: unknown;
                id: string;
                role: "developer";
                content: string;
                subagentRunId?: string | undefined;
                name?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "system";
                content: string;
                subagentRunId?: string | undefined;
                name?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "assistant";
                subagentRunId?: string | undefined;
                name?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
                content?: string | undefined;
                toolCalls?: {
                    [x: string]: unknown;
                    id: string;
                    type: "function";
                    function: {
                        [x: string]: unknown;
                        name: string;
                        arguments: string;
                    };
                    encryptedValue?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                }[] | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "user";
                content: string | ({
                    [x: string]: unknown;
                    type: "text";
                    text: string;
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "image";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "audio";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "video";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "document";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                })[];
                subagentRunId?: string | undefined;
                name?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "tool";
                content: string | ({
                    [x: string]: unknown;
                    type: "text";
                    text: string;
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "image";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "audio";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "video";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                } | {
                    [x: string]: unknown;
                    type: "document";
                    source: {
                        [x: string]: unknown;
                        type: "data";
                        value: string;
                        mimeType: string;
                    } | {
                        [x: string]: unknown;
                        type: "url";
                        value: string;
                        mimeType?: string | undefined;
                    } | {
                        [x: string]: unknown;
                        type: "file";
                        value: string;
                        provider?: string | undefined;
                        mimeType?: string | undefined;
                    };
                    id?: string | undefined;
                    metadata?: any;
                })[];
                toolCallId: string;
                subagentRunId?: string | undefined;
                error?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "activity";
                activityType: string;
                content: Record<string, any>;
                subagentRunId?: string | undefined;
                metadata?: Record<string, any> | undefined;
            } | {
                [x: string]: unknown;
                id: string;
                role: "reasoning";
                content: string;
                subagentRunId?: string | undefined;
                encryptedValue?: string | undefined;
                metadata?: Record<string, any> | undefined;
            })[];
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.ACTIVITY_SNAPSHOT;
            messageId: string;
            activityType: string;
            content: Record<string, any>;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
            replace?: boolean | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.ACTIVITY_DELTA;
            messageId: string;
            activityType: string;
            patch: ({
                [x: string]: unknown;
                op: "add";
                path: string;
                value: any;
            } | {
                [x: string]: unknown;
                op: "remove";
                path: string;
            } | {
                [x: string]: unknown;
                op: "replace";
                path: string;
                value: any;
            } | {
                [x: string]: unknown;
                op: "move";
                from: string;
                path: string;
            } | {
                [x: string]: unknown;
                op: "copy";
                from: string;
                path: string;
            } | {
                [x: string]: unknown;
                op: "test";
                path: string;
                value: any;
            })[];
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.RAW;
            event: any;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
            source?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.CUSTOM;
            name: string;
            value: any;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.RUN_STARTED;
            threadId: string;
            runId: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            protocolVersion?: string | undefined;
            parentRunId?: string | undefined;
            input?: {
                [x: string]: unknown;
                threadId: string;
                runId: string;
                messages: ({
                    [x: string]: unknown;
                    id: string;
                    role: "developer";
                    content: string;
                    subagentRunId?: string | undefined;
                    name?: string | undefined;
                    encryptedValue?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                } | {
                    [x: string]: unknown;
                    id: string;
                    role: "system";
                    content: string;
                    subagentRunId?: string | undefined;
                    name?: string | undefined;
                    encryptedValue?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                } | {
                    [x: string]: unknown;
                    id: string;
                    role: "assistant";
                    subagentRunId?: string | undefined;
                    name?: string | undefined;
                    encryptedValue?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                    content?: string | undefined;
                    toolCalls?: {
                        [x: string]: unknown;
                        id: string;
                        type: "function";
                        function: {
                            [x: string]: unknown;
                            name: string;
                            arguments: string;
                        };
                        encryptedValue?: string | undefined;
                        metadata?: Record<string, any> | undefined;
                    }[] | undefined;
                } | {
                    [x: string]: unknown;
                    id: string;
                    role: "user";
                    content: string | ({
                        [x: string]: unknown;
                        type: "text";
                        text: string;
                        id?: string | undefined;
                        metadata?: any;
                    } | {
                        [x: string]: unknown;
                        type: "image";
                        source: {
                            [x: string]: unknown;
                            type: "data";
                            value: string;
                            mimeType: string;
                        } | {
                            [x: string]: unknown;
                            type: "url";
                            value: string;
                            mimeType?: string | undefined;
                        } | {
                            [x: string]: unknown;
                            type: "file";
                            value: string;
                            provider?: string | undefined;
                            mimeType?: string | undefined;
                        };
                        id?: string | undefined;
                        metadata?: any;
                    } | {
                        [x: string]: unknown;
                        type: "audio";
                        source: {
                            [x: string]: unknown;
                            type: "data";
                            value: string;
                            mimeType: string;
                        } | {
                            [x: string]: unknown;
                            type: "url";
                            value: string;
                            mimeType?: string | undefined;
                        } | {
                            [x: string]: unknown;
                            type: "file";
                            value: string;
                            provider?: string | undefined;
                            mimeType?: string | undefined;
                        };
                        id?: string | undefined;
                        metadata?: any;
                    } | {
                        [x: string]: unknown;
                        type: "video";
                        source: {
                            [x: string]: unknown;
                            type: "data";
                            value: string;
                            mimeType: string;
                        } | {
                            [x: string]: unknown;
                            type: "url";
                            value: string;
                            mimeType?: string | undefined;
                        } | {
                            [x: string]: unknown;
                            type: "file";
                            value: string;
                            provider?: string | undefined;
                            mimeType?: string | undefined;
                        };
                        id?: string | undefined;
                        metadata?: any;
                    } | {
                        [x: string]: unknown;
                        type: "document";
                        source: {
                            [x: string]: unknown;
                            type: "data";
                            value: string;
                            mimeType: string;
                        } | {
                            [x: string]: unknown;
                            type: "url";
                            value: string;
                            mimeType?: string | undefined;
                        } | {
                            [x: string]: unknown;
                            type: "file";
                            value: string;
                            provider?: string | undefined;
                            mimeType?: string | undefined;
                        };
                        id?: string | undefined;
                        metadata?: any;
                    })[];
                    subagentRunId?: string | undefined;
                    name?: string | undefined;
                    encryptedValue?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                } | {
                    [x: string]: unknown;
                    id: string;
                    role: "tool";
                    content: string | ({
                        [x: string]: unknown;
                        type: "text";
                        text: string;
                        id?: string | undefined;
                        metadata?: any;
                    } | {
                        [x: string]: unknown;
                        type: "image";
                        source: {
                            [x: string]: unknown;
                            type: "data";
                            value: string;
                            mimeType: string;
                        } | {
                            [x: string]: unknown;
                            type: "url";
                            value: string;
                            mimeType?: string | undefined;
                        } | {
                            [x: string]: unknown;
                            type: "file";
                            value: string;
                            provider?: string | undefined;
                            mimeType?: string | undefined;
                        };
                        id?: string | undefined;
                        metadata?: any;
                    } | {
                        [x: string]: unknown;
                        type: "audio";
                        source: {
                            [x: string]: unknown;
                            type: "data";
                            value: string;
                            mimeType: string;
                        } | {
                            [x: string]: unknown;
                            type: "url";
                            value: string;
                            mimeType?: string | undefined;
                        } | {
                            [x: string]: unknown;
                            type: "file";
                            value: string;
                            provider?: string | undefined;
                            mimeType?: string | undefined;
                        };
                        id?: string | undefined;
                        metadata?: any;
                    } | {
                        [x: string]: unknown;
                        type: "video";
                        source: {
                            [x: string]: unknown;
                            type: "data";
                            value: string;
                            mimeType: string;
                        } | {
                            [x: string]: unknown;
                            type: "url";
                            value: string;
                            mimeType?: string | undefined;
                        } | {
                            [x: string]: unknown;
                            type: "file";
                            value: string;
                            provider?: string | undefined;
                            mimeType?: string | undefined;
                        };
                        id?: string | undefined;
                        metadata?: any;
                    } | {
                        [x: string]: unknown;
                        type: "document";
                        source: {
                            [x: string]: unknown;
                            type: "data";
                            value: string;
                            mimeType: string;
                        } | {
                            [x: string]: unknown;
                            type: "url";
                            value: string;
                            mimeType?: string | undefined;
                        } | {
                            [x: string]: unknown;
                            type: "file";
                            value: string;
                            provider?: string | undefined;
                            mimeType?: string | undefined;
                        };
                        id?: string | undefined;
                        metadata?: any;
                    })[];
                    toolCallId: string;
                    subagentRunId?: string | undefined;
                    error?: string | undefined;
                    encryptedValue?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                } | {
                    [x: string]: unknown;
                    id: string;
                    role: "activity";
                    activityType: string;
                    content: Record<string, any>;
                    subagentRunId?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                } | {
                    [x: string]: unknown;
                    id: string;
                    role: "reasoning";
                    content: string;
                    subagentRunId?: string | undefined;
                    encryptedValue?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                })[];
                tools: {
                    [x: string]: unknown;
                    name: string;
                    description: string;
                    parameters?: any;
                    metadata?: Record<string, any> | undefined;
                }[];
                context: {
                    [x: string]: unknown;
                    description: string;
                    value: string;
                }[];
                protocolVersion?: string | undefined;
                parentRunId?: string | undefined;
                state?: any;
                forwardedProps?: any;
                resume?: {
                    [x: string]: unknown;
                    interruptId: string;
                    status: "resolved" | "cancelled";
                    payload?: any;
                    metadata?: Record<string, any> | undefined;
                }[] | undefined;
            } | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.RUN_FINISHED;
            threadId: string;
            runId: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            result?: any;
            outcome?: {
                [x: string]: unknown;
                type: "success";
                pendingToolCallIds?: string[] | undefined;
            } | {
                [x: string]: unknown;
                type: "interrupt";
                interrupts: {
                    [x: string]: unknown;
                    id: string;
                    reason: string;
                    subagentRunId?: string | undefined;
                    message?: string | undefined;
                    toolCallId?: string | undefined;
                    responseSchema?: Record<string, any> | undefined;
                    expiresAt?: string | undefined;
                    metadata?: Record<string, any> | undefined;
                }[];
            } | {
                [x: string]: unknown;
                type: "cancelled";
            } | undefined;
            usage?: {
                [x: string]: unknown;
                provider?: string | undefined;
                model?: string | undefined;
                inputTokens?: number | undefined;
                outputTokens?: number | undefined;
                totalTokens?: number | undefined;
                reasoningTokens?: number | undefined;
                cachedInputTokens?: number | undefined;
                cacheWriteInputTokens?: number | undefined;
            }[] | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.RUN_ERROR;
            message: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            code?: string | undefined;
            usage?: {
                [x: string]: unknown;
                provider?: string | undefined;
                model?: string | undefined;
                inputTokens?: number | undefined;
                outputTokens?: number | undefined;
                totalTokens?: number | undefined;
                reasoningTokens?: number | undefined;
                cachedInputTokens?: number | undefined;
                cacheWriteInputTokens?: number | undefined;
            }[] | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.STEP_STARTED;
            stepName: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.STEP_FINISHED;
            stepName: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.REASONING_START;
            messageId: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.REASONING_MESSAGE_START;
            messageId: string;
            role: "reasoning";
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.REASONING_MESSAGE_CONTENT;
            messageId: string;
            delta: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.REASONING_MESSAGE_END;
            messageId: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.REASONING_MESSAGE_CHUNK;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
            messageId?: string | undefined;
            delta?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.REASONING_END;
            messageId: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.REASONING_ENCRYPTED_VALUE;
            subtype: "message" | "tool-call";
            entityId: string;
            encryptedValue: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            subagentRunId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.SUBAGENT_STARTED;
            subagentRunId: string;
            name: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            description?: string | undefined;
            parentSubagentRunId?: string | undefined;
            parentToolCallId?: string | undefined;
            parentMessageId?: string | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.SUBAGENT_FINISHED;
            subagentRunId: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            result?: any;
            outcome?: {
                [x: string]: unknown;
                type: "success";
            } | {
                [x: string]: unknown;
                type: "suspended";
                interruptIds?: string[] | undefined;
            } | undefined;
        } | {
            [x: string]: unknown;
            type: import("@ag-ui/core").EventType.SUBAGENT_ERROR;
            subagentRunId: string;
            message: string;
            timestamp?: number | undefined;
            rawEvent?: any;
            metadata?: Record<string, any> | undefined;
            code?: string | undefined;
        }>>;
    }, z.core.$strip>, z.ZodMiniObject<{
        type: z.ZodMiniLiteral<"entry-ack">;
        key: z.ZodMiniString<string>;
    }, z.core.$strip>, z.ZodMiniObject<{
        type: z.ZodMiniLiteral<"background-changed">;
    }, z.core.$strip>, z.ZodMiniObject<{
        type: z.ZodMiniLiteral<"leader">;
        tabId: z.ZodMiniString<string>;
    }, z.core.$strip>, z.ZodMiniObject<{
        type: z.ZodMiniLiteral<"hello">;
    }, z.core.$strip>, z.ZodMiniObject<{
        type: z.ZodMiniLiteral<"here">;
    }, z.core.$strip>, z.ZodMiniObject<{
        type: z.ZodMiniLiteral<"bye">;
    }, z.core.$strip>, z.ZodMiniObject<{
        type: z.ZodMiniLiteral<"request">;
        request: z.ZodMiniDiscriminatedUnion<[z.ZodMiniObject<{
            kind: z.ZodMiniLiteral<"retry-now">;
            key: z.ZodMiniString<string>;
        }, z.core.$strip>, z.ZodMiniObject<{
            kind: z.ZodMiniLiteral<"retry-all">;
        }, z.core.$strip>, z.ZodMiniObject<{
            kind: z.ZodMiniLiteral<"resume-after-auth">;
        }, z.core.$strip>, z.ZodMiniObject<{
            kind: z.ZodMiniLiteral<"resume-background">;
        }, z.core.$strip>], "kind">;
    }, z.core.$strip>], "type">;
}, z.core.$strip>;
