export { type CliArgs, parseCliArgs } from "./cli-args";
export { createGateway, type Gateway, type GatewayOptions } from "./gateway";
export { GatewayError, GatewayErrorKind } from "./gateway-error";
export { openStore, parseStoreSpec, type StoreSpec } from "./open-store";
export type { FetchLike } from "./upstream/forward-run";
export { upstreamId } from "./upstream-ids";
