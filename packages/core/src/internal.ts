// `@agui-outbox/core/internal`: the engine parts the project's own add-ons build on
// (`@agui-outbox/background`). Not for apps: these change with the engine, in any release.
export { pumpRunStream } from "./delivery/pump-run-stream";
export { classifyOutcome } from "./outcome/classify";
export type { OutcomeContext } from "./outcome/context";
export { InvalidStreamKind } from "./outcome/delivery-signal";
export { errorOf } from "./outcome/verdict-rules";
export { backoffDelay, DEFAULT_BACKOFF_CAP_MS } from "./retry/backoff";
export { type PlanRetryOptions, planRetry } from "./retry/plan-retry";
export { parseRetryAfter } from "./retry/retry-after";
export { CursorVerdict, createEventLog, type EventLog } from "./stream/event-log";
export { DEFAULT_MAX_EVENT_BYTES } from "./stream/read-event-stream";
export { DEFAULT_STALL_TIMEOUT_MS } from "./stream/watchdog";
export { readonlyStore, ThreadRegistry } from "./thread/thread-registry";
export { AgentHttp, type HttpFailure, isHttpFailure } from "./transport/agent-http";
export { withChildSignal } from "./transport/child-signal";
