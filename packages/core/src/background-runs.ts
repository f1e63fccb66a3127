// `@agui-outbox/core/background`: background runs, opt in per client.
//   createOutboxClient({ url, namespace, backgroundRuns: backgroundRuns() })
import { BackgroundRuns } from "./background/background-runs";
import type { BackgroundRunsPlugin } from "./client/background-plugin";

export {
  type BackgroundRunsOptions,
  DEFAULT_BACKGROUND_POLL_INTERVAL_MS,
} from "./background/background-runs";
export type { BackgroundRunner, BackgroundRunsPlugin } from "./client/background-plugin";

/** Enables background runs (`client.background.start()`, polling, resume after reload). */
export function backgroundRuns(): BackgroundRunsPlugin {
  return (options) => new BackgroundRuns(options);
}
