export { CheckSkipped } from "./check-skipped";
export {
  type Asked,
  agentEndpoint,
  approval,
  approveWith,
  askToDeploy,
  type CheckTarget,
  codeOf,
  executions,
  finished,
  hydrate,
  metadataOf,
  post,
  type RunReply,
  readFrames,
  resume,
  type SseFrame,
  types,
  withoutThreadIds,
} from "./check-wire";
export { type CliArgs, parseCliArgs, USAGE } from "./cli-args";
export { ConformanceError, ConformanceErrorKind } from "./conformance-error";
export {
  type CheckResult,
  CONTRACT_CHECKS,
  type ContractCheck,
  SERVER_CHECKS,
} from "./contract-checks";
export { type HttpTargetOptions, HttpTargetOptionsSchema, httpTarget } from "./http-target";
export { markdownTable } from "./markdown-table";
export { RELEASE_CHECKS } from "./release-checks";
export { renderResults, summaryLine, type Tally, tally } from "./results-table";
export { runChecks } from "./run-checks";
export { type CliIo, ExitCode, runCli } from "./run-cli";
