/**
 * `@agui-outbox/core/protocol`: the wire types and constants (index.ts), the
 * contract's zod schemas and the zod/mini AG-UI schemas. The SDK's own modules
 * import index.ts, which leaves every zod schema out: the contract's objects are
 * checked by hand (extension-checks.ts), the AG-UI schemas load on demand
 * (stream/load-event-validator.ts, transport/load-capabilities-validator.ts), and
 * a bundler that splits by file keeps a module in the page's first chunk as soon
 * as an eager module re-exports it.
 */

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
