// @agui-outbox/core/verdict-table: DESIGN.md's verdict table with its prose, for docs
// and tools. Apart from the main entry: the client runs the rules alone and never
// reads the prose, so an app's bundle carries none of it.

export { VERDICT_TABLE, type VerdictRow } from "./outcome/verdict-table";
export { verdictTableMarkdown } from "./outcome/verdict-table-markdown";
