// AG-UI's constants, apart from protocol/ag-ui.ts: that module builds nothing itself
// but imports `@ag-ui/core/schemas`, whose classic-zod schemas a browser bundle
// would then carry whole. Runtime code validates with protocol/ag-ui-mini.ts.
export { EventType, PROTOCOL_VERSION } from "@ag-ui/core";
