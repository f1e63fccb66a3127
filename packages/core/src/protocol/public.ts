/**
 * `@agui-outbox/core/protocol`: the wire types and schemas (index.ts) and the
 * zod/mini event schemas. The SDK's own modules import index.ts, which leaves the
 * event schemas out: they load on demand (stream/load-event-validator.ts), and a
 * bundler that splits by file keeps a module in the page's first chunk as soon as
 * an eager module re-exports it.
 */
export {
  /** `EventSchema` on zod/mini: the same checks, a fraction of the bundle. */
  EventSchema as EventMiniSchema,
} from "./ag-ui-mini";
export * from "./index";
