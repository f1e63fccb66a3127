// Tab coordination: one sender per origin and namespace.
export {
  type ChannelFactory,
  type ChannelLike,
  type ChannelListener,
  defaultOpenChannel,
  type MessageEventLike,
} from "./channel";
export { createEntryChangeTracker, type EntryChanges, type EntryChangeTracker } from "./entry-changes";
export { OutboxEntrySchema } from "./entry-schema";
export {
  InMemoryBroadcastHub,
  type InMemoryBroadcastHubOptions,
  InMemoryLockManager,
  type Schedule,
} from "./in-memory-tabs";
export {
  defaultLocks,
  type LockLike,
  type LockManagerLike,
  type LockManagerSource,
  type LockRequestOptionsLike,
} from "./lock-manager";
export {
  AnnounceResult,
  createTabCoordinator,
  DEFAULT_ANNOUNCE_ACK_MS,
  DEFAULT_RESCAN_INTERVAL_MS,
  DropReason,
  TAB_NAME_PREFIX,
  type TabCoordinator,
  type TabCoordinatorOptions,
  type TabState,
  UnsupportedReason,
} from "./tab-coordinator";
export {
  parseTabEnvelope,
  TAB_PROTOCOL,
  TAB_PROTOCOL_VERSION,
  type TabEnvelope,
  type TabMessage,
  type TabMessageOf,
  TabMessageType,
  type TabRequest,
} from "./tab-message";
export { TabEnvelopeSchema, TabMessageSchema, TabRequestSchema } from "./tab-message-schema";
