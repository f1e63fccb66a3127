// @agui-outbox/react/devtools: the outbox inspector. Load it lazily; it is not part of
// the main entry, so an app that never imports it ships none of it.

export {
  type InspectorReport,
  type InspectorReportInput,
  type InspectorReportOptions,
  inspectorReport,
  type ReportedEntry,
} from "./inspector-report";
export { OutboxDevtools, type OutboxDevtoolsProps } from "./outbox-devtools";
export {
  recordTimelines,
  type TimelineRecorder,
  type TimelineStep,
  type Timelines,
  timelinesOf,
} from "./timeline";
