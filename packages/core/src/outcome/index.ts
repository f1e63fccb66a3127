export { classifyOutcome, findVerdictRow, UNMATCHED_RULE } from "./classify";
export { type OutcomeContext, outcomeContext } from "./context";
export {
  buildContractResolution,
  buildDegradedResolution,
  buildResumeResolution,
  declaresEditedArgs,
  type ResumeResolution,
} from "./degraded-payload";
export {
  type DeliverySignal,
  type DeliverySignalType,
  InvalidStreamKind,
  ServerKind,
} from "./delivery-signal";
export type {
  AppliedVerdict,
  ContinueVerdict,
  ElsewhereVerdict,
  HydrateThenDecideVerdict,
  LostVerdict,
  NeedsUserVerdict,
  PausedVerdict,
  ReattachVerdict,
  RetryVerdict,
  StatusThenHydrateVerdict,
  Verdict,
  VerdictBody,
} from "./verdict";
export { VerdictKind } from "./verdict";
export { errorOf, VERDICT_RULES, type VerdictRule } from "./verdict-rules";
export { VERDICT_TABLE, type VerdictRow } from "./verdict-table";
export { verdictTableMarkdown } from "./verdict-table-markdown";
