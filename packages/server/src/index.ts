export { type ContractServer, createContractServer } from "./contract-server";
export { fromAbstractAgent, type RunnableAgent } from "./engine/abstract-agent";
export {
  type AgentHandler,
  type AgentTurn,
  type AppliedAnswer,
  type Approval,
  type ApprovalReader,
  readApproval,
  type ToolContext,
  type ToolDefinition,
} from "./engine/agent";
export {
  type BackgroundAgent,
  type BackgroundSubmission,
  type BackgroundTurn,
  DeliveryDeferred,
  DeliveryRejected,
} from "./engine/background-agent";
export { type BackgroundAnswer, parsePollRequest } from "./engine/background-engine";
export { canonicalJson } from "./engine/canonical-json";
export type { AfterClaim, BeforeClaim, ClaimContext, ClaimRefusal } from "./engine/claim-hooks";
export { ContractEngine, type RunResponse } from "./engine/contract-engine";
export type { Hydrate, HydrationTurn } from "./engine/hydration";
export { idProblem, MAX_ID_LENGTH, pathId } from "./engine/ids";
export type { ContractServerOptions, Identify } from "./engine/options";
export { type ParsedRunInput, parseRunInput } from "./engine/parse-run-input";
export { type ReplaySource, replayEvents } from "./engine/replay-events";
export {
  type ClaimedAnswer,
  evaluateResume,
  isOpen,
  type ResumeContext,
  type ResumeVerdict,
  sameDecision,
} from "./engine/resume-verdict";
export { realClock, type ServerClock } from "./engine/server-clock";
export { followRun } from "./http/follow-run";
export { createHttpServer, type HttpServerTimeouts } from "./http/http-server";
export { type IdentifyResult, identifyRequest } from "./http/identify-request";
export {
  backgroundStatus,
  capabilitiesOf,
  createNodeHandler,
  type NodeHandler,
  type NodeHandlerOptions,
} from "./http/node-handler";
export { BodyTimeoutError, BodyTooLargeError, readBody } from "./http/read-body";
export { sendError, sendJson, setCorsHeaders } from "./http/respond";
export { SseStream, type SseStreamOptions } from "./http/sse-stream";
export { ServerCode } from "./server-codes";
export * from "./store/background-records";
export type { CommitWindow, ContractStore } from "./store/contract-store";
export { createFileStore, type FileStoreOptions } from "./store/file-store";
export { type MemoryDocument, MemoryStore, type MemoryStoreOptions } from "./store/memory-store";
export * from "./store/records";
export type { StoreLimits } from "./store/run-bounds";
export { identityOf, SCOPE_SEPARATOR, scopedId, scopeStore } from "./store/scoped-store";
