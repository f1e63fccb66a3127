export { isEventStreamContentType } from "./content-type";
export {
  decodeEventFrame,
  isTerminalEvent,
  type StreamedEvent,
  type TerminalEvent,
} from "./decode-event-frame";
export { CursorVerdict, createEventLog, type EventLog } from "./event-log";
export {
  DEFAULT_MAX_EVENT_BYTES,
  type ReadEventStreamOptions,
  readEventStream,
  type StreamEnd,
} from "./read-event-stream";
export { defaultTimers, type Timers } from "./timers";
export {
  createStallWatchdog,
  DEFAULT_STALL_TIMEOUT_MS,
  type StallWatchdog,
  type StallWatchdogOptions,
} from "./watchdog";
