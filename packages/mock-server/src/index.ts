export { ChaosRequestSchema, type Fault, FaultAction, FaultPoint, FaultSchema } from "./chaos/fault";
export { BACKGROUND_POLL_PATH } from "./engine/capabilities";
export type { OccurrenceView } from "./engine/mock-instance";
export type { MockServer } from "./mock-server";
export { startMockServer } from "./mock-server";
export type { CrashInfo, MockClock, MockServerOptions, StoreConfig } from "./options";
export { isMockMode, MockMode } from "./options";
export type { LedgerEntry, MockState } from "./state/mock-state";
export type { MockStore } from "./store/mock-store";
