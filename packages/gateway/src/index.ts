export { type CliArgs, parseCliArgs } from "./cli-args";
export { createGateway, type Gateway, type GatewayOptions } from "./gateway";
export { GatewayError, GatewayErrorKind } from "./gateway-error";
export { openStore, openThreadLock, parseStoreSpec, type StoreSpec } from "./open-store";
export { InProcessThreadLock, type ThreadLock } from "./thread-lock";
export type { FetchLike } from "./upstream/upstream-post";
export { upstreamId } from "./upstream-ids";
