/**
 * AG-UI 1.0 wire types and classic-zod schemas from `@ag-ui/core/schemas`, for servers and
 * tests (the browser validates with ag-ui-mini.ts). Types are inferred from the schemas: the
 * parsed shape is what the code holds under `exactOptionalPropertyTypes`.
 */
import {
  AgentCapabilitiesSchema,
  EventSchema,
  InterruptSchema,
  MessageSchema,
  ResumeEntrySchema,
  RunAgentInputSchema,
  RunErrorEventSchema,
  RunFinishedEventSchema,
  RunStartedEventSchema,
} from "@ag-ui/core/schemas";
import type { z } from "zod";

export {
  AgentCapabilitiesSchema,
  EventSchema,
  InterruptSchema,
  MessageSchema,
  ResumeEntrySchema,
  RunAgentInputSchema,
  RunErrorEventSchema,
  RunFinishedEventSchema,
  RunStartedEventSchema,
};

export type AgUiEvent = z.infer<typeof EventSchema>;
export type AgentCapabilities = z.infer<typeof AgentCapabilitiesSchema>;
export type Interrupt = z.infer<typeof InterruptSchema>;
export type Message = z.infer<typeof MessageSchema>;
export type ResumeEntry = z.infer<typeof ResumeEntrySchema>;
export type RunAgentInput = z.infer<typeof RunAgentInputSchema>;
export type RunFinishedEvent = z.infer<typeof RunFinishedEventSchema>;
export type RunErrorEvent = z.infer<typeof RunErrorEventSchema>;
