/**
 * AG-UI 1.0 wire types and schemas from `@ag-ui/core`, so the client and the
 * mock server name one source of truth. The zod schemas live in
 * `@ag-ui/core/schemas`, not in the package's main entry.
 *
 * The types are inferred from the schemas rather than taken from the package's
 * hand-written declarations: data is parsed once at the boundary, and under
 * `exactOptionalPropertyTypes` the parsed shape (`x?: T | undefined`) is what
 * the rest of the code actually holds.
 *
 * The SDK's runtime validates with the same schemas on zod/mini
 * (ag-ui-mini.ts): these classic-zod ones are for servers and tests, and a
 * browser bundle leaves them out. `EventType` and `PROTOCOL_VERSION` are in
 * ag-ui-constants.ts.
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
export type RunStartedEvent = z.infer<typeof RunStartedEventSchema>;
export type RunFinishedEvent = z.infer<typeof RunFinishedEventSchema>;
export type RunErrorEvent = z.infer<typeof RunErrorEventSchema>;
/** An AG-UI event narrowed to one `type`. */
export type AgUiEventOf<T extends AgUiEvent["type"]> = Extract<AgUiEvent, { type: T }>;
