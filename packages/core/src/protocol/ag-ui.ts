/**
 * AG-UI 1.0 wire types and schemas, re-exported from `@ag-ui/core` so both the
 * client and the mock server name one source of truth. The zod schemas live in
 * `@ag-ui/core/schemas`, not in the package's main entry.
 */
export type {
  AgentCapabilities,
  BaseEvent,
  Event as AgUiEvent,
  Interrupt,
  Message,
  ResumeEntry,
  RunAgentInput,
  RunErrorEvent,
  RunFinishedEvent,
  RunFinishedOutcome,
  RunStartedEvent,
  TextMessageContentEvent,
  TextMessageEndEvent,
  TextMessageStartEvent,
  ToolCallArgsEvent,
  ToolCallEndEvent,
  ToolCallResultEvent,
  ToolCallStartEvent,
} from "@ag-ui/core";
export { EventType, PROTOCOL_VERSION } from "@ag-ui/core";
export {
  AgentCapabilitiesSchema,
  EventSchema,
  InterruptSchema,
  MessageSchema,
  ResumeEntrySchema,
  RunAgentInputSchema,
} from "@ag-ui/core/schemas";
