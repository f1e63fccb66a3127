// `@agui-outbox/background`: background runs, opt in per client.
//   const background = backgroundRuns();
//   createOutboxClient({ url, namespace, plugins: [background] });
export { type BackgroundRunsPlugin, backgroundRuns } from "./background-plugin";
export type { BackgroundRunRecord } from "./background-run-record";
export {
  type BackgroundRunsState,
  DEFAULT_BACKGROUND_POLL_INTERVAL_MS,
  type StartBackgroundRunInput,
} from "./background-runs-options";
export { BackgroundVerdict, FINAL_BACKGROUND_VERDICTS, isFinalBackgroundVerdict } from "./background-verdict";
