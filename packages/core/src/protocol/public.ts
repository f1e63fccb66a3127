// `@agui-outbox/core/protocol`: index.ts plus the zod schemas. The SDK's modules import
// index.ts only: a module an eager one re-exports lands in the page's first chunk.

export { readCapabilities } from "../transport/read-capabilities";
export {
  /** `AgentCapabilitiesSchema` on zod/mini: the same checks, a fraction of the bundle. */
  AgentCapabilitiesSchema as AgentCapabilitiesMiniSchema,
} from "./ag-ui-capabilities-mini";
export {
  /** `EventSchema` on zod/mini: the same checks, a fraction of the bundle. */
  EventSchema as EventMiniSchema,
} from "./ag-ui-mini";
export { parseRecoveryCapability } from "./extension-checks";
export * from "./extension-schemas";
export * from "./index";
