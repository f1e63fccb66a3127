export { type BackgroundAnswer, BackgroundHttp, type BackgroundHttpOptions } from "./background-http";
export { type BackgroundRunAction, reduceBackgroundRun } from "./background-reducer";
export {
  type BackgroundRunRecord,
  BackgroundRunRecordSchema,
  createBackgroundRunRecord,
  type NewBackgroundRun,
} from "./background-run-record";
export { BackgroundRunStore } from "./background-run-store";
export {
  type BackgroundDeps,
  BackgroundRuns,
  type BackgroundRunsOptions,
  type BackgroundRunsState,
  DEFAULT_BACKGROUND_POLL_INTERVAL_MS,
  type StartBackgroundRunInput,
} from "./background-runs";
export { BackgroundVerdict, FINAL_BACKGROUND_VERDICTS, isFinalBackgroundVerdict } from "./background-verdict";
export { backgroundReason, classifyBackgroundSignal } from "./classify-background";
export { type BackgroundEvent, decodeBackgroundEvents } from "./decode-background-events";
