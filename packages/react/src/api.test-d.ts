// Type tests of the React API (compiled by `tsc -b`; an assertion that does not
// hold fails the type check). Never executed.
import type { ApprovalPhase, EntryEvent, OutboxEntry, OutboxError } from "@agui-outbox/core";
import type { ComponentType } from "react";
import { expectTypeOf } from "vitest";
import type { ApprovalRendererProps, ApprovalRenderers } from "./approval-renderer";
import type { OutboxProviderProps } from "./outbox-provider";
import type { ThreadApproval } from "./thread-approval";
import type { ApprovalAnswer, UseApprovalOptions, UseApprovalResult } from "./use-approval";
import { useApprovals } from "./use-approvals";
import { useEntryEvents } from "./use-entry-events";

declare const approval: UseApprovalResult;

// answer() takes named parts, and still the positional form.
expectTypeOf(approval.answer({ approved: true })).toEqualTypeOf<Promise<OutboxEntry | undefined>>();
expectTypeOf(approval.answer({ approved: false, reason: "not today" })).toEqualTypeOf<
  Promise<OutboxEntry | undefined>
>();
expectTypeOf(approval.answer(true, { target: "staging" })).toEqualTypeOf<Promise<OutboxEntry | undefined>>();
// @ts-expect-error: `approved` is required.
void approval.answer({ editedArgs: {} });
// @ts-expect-error: a reason is text.
void approval.answer({ approved: false, reason: 42 });

// answerAsync resolves with the entry itself (it rejects instead of resolving undefined).
expectTypeOf(approval.answerAsync).parameter(0).toEqualTypeOf<ApprovalAnswer>();
expectTypeOf(approval.answerAsync({ approved: true })).toEqualTypeOf<Promise<OutboxEntry>>();

// The coarse phase is a closed union beside the detailed state.
expectTypeOf(approval.phase).toEqualTypeOf<ApprovalPhase>();
expectTypeOf<ApprovalPhase>().toEqualTypeOf<"idle" | "saving" | "sending" | "waiting" | "settled">();
expectTypeOf(approval.isPaused).toEqualTypeOf<boolean>();
expectTypeOf(approval.question).toEqualTypeOf<string | undefined>();

// Callbacks receive the entry (and onSettled the error).
expectTypeOf<NonNullable<UseApprovalOptions["onVerdict"]>>().parameter(0).toEqualTypeOf<OutboxEntry>();
expectTypeOf<NonNullable<UseApprovalOptions["onSettled"]>>().parameters.toEqualTypeOf<
  [OutboxEntry | undefined, Error | null]
>();

// useApprovals returns approval objects, not ids.
expectTypeOf(useApprovals).returns.toEqualTypeOf<readonly ThreadApproval[]>();
expectTypeOf<ThreadApproval["interruptId"]>().toEqualTypeOf<string>();
expectTypeOf<ThreadApproval["entry"]>().toEqualTypeOf<OutboxEntry | undefined>();

// Per-tool renderers are components of ApprovalRendererProps, registered by tool name.
declare function DeployCard(props: ApprovalRendererProps): null;
const renderers: ApprovalRenderers = { deploy_change: DeployCard };
expectTypeOf(renderers).toEqualTypeOf<ApprovalRenderers>();
expectTypeOf<ApprovalRenderers[string]>().toEqualTypeOf<ComponentType<ApprovalRendererProps>>();
expectTypeOf<OutboxProviderProps["renderers"]>().toEqualTypeOf<ApprovalRenderers | undefined>();
// @ts-expect-error: a renderer is a component, not an element.
const wrong: ApprovalRenderers = { deploy_change: "DeployCard" };
void wrong;

// Entry events are a union tagged on `type`.
expectTypeOf(useEntryEvents).parameter(0).parameter(0).toEqualTypeOf<EntryEvent>();
expectTypeOf<EntryEvent["type"]>().toEqualTypeOf<"added" | "changed" | "verdict" | "removed">();

// answerAsync's rejection is the core's typed error (documented; promises carry no error type).
expectTypeOf<OutboxError["kind"]>().toBeString();
