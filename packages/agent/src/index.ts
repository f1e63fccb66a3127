// The public API of @agui-outbox/agent.

export {
  type AnswerVerdict,
  type DeliveryProgress,
  DurableEventName,
  DurableRunErrorCode,
  type VerdictDetail,
} from "./agent-events";
export { DurableHttpAgent, type DurableHttpAgentConfig } from "./durable-http-agent";
export { type ReadResume, type ResumeEntryLike, readResumeEntry } from "./resume-answer";
