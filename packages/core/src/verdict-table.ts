// @agui-outbox/core/verdict-table: DESIGN.md's verdict table with its prose, for docs
// and tools, and the verdict function itself. Apart from the main entry: the client
// runs the rules from the chunk its sending tab loads and never reads the prose, so
// an app's first chunk carries neither.

export { classifyOutcome } from "./outcome/classify";
export { VERDICT_TABLE, type VerdictRow } from "./outcome/verdict-table";
export { verdictTableMarkdown } from "./outcome/verdict-table-markdown";
