export * from "./ag-ui";
export {
  /** `AgentCapabilitiesSchema` on zod/mini: the same checks, a fraction of the bundle. */
  AgentCapabilitiesSchema as AgentCapabilitiesMiniSchema,
} from "./ag-ui-capabilities-mini";
export * from "./ag-ui-constants";
export * from "./background";
export * from "./extensions";
export * from "./headers";
export * from "./outcome-codes";
export * from "./routes";
export * from "./stream-cursor";
