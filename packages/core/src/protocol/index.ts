export * from "./ag-ui";
export * from "./ag-ui-constants";
export {
  /** `AgentCapabilitiesSchema` on zod/mini: the same checks, a fraction of the bundle. */
  AgentCapabilitiesSchema as AgentCapabilitiesMiniSchema,
  /** `EventSchema` on zod/mini: the same checks, a fraction of the bundle. */
  EventSchema as EventMiniSchema,
} from "./ag-ui-mini";
export * from "./background";
export * from "./extensions";
export * from "./headers";
export * from "./outcome-codes";
export * from "./routes";
export * from "./stream-cursor";
