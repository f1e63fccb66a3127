// `@agui-outbox/core/testing`: stand-ins for the browser pieces a client depends
// on, for tests of apps built on the SDK. Not part of the main entry.
export { InMemoryBroadcastHub, InMemoryLockManager } from "./in-memory-tabs";
export { createIsolatedClient, type IsolatedClientOptions } from "./isolated-client";
export { manualSignal } from "./manual-signal";
