/**
 * The part of `BroadcastChannel` the tab coordinator uses. A real
 * `BroadcastChannel` satisfies it; tests use `InMemoryBroadcastHub`.
 */
export interface MessageEventLike {
  readonly data: unknown;
}

export type ChannelListener = (event: MessageEventLike) => void;

export interface ChannelLike {
  /** Structured-clones `message` to every other channel of the same name; never to this one. */
  postMessage(message: unknown): void;
  addEventListener(type: "message", listener: ChannelListener): void;
  removeEventListener(type: "message", listener: ChannelListener): void;
  close(): void;
}

/** Opens a channel by name; `undefined` means the platform has no BroadcastChannel. */
export type ChannelFactory = (name: string) => ChannelLike | undefined;

/** `new BroadcastChannel(name)`, with the constructor looked up at call time (SSR-safe). */
export const defaultOpenChannel: ChannelFactory = (name) => {
  if (typeof BroadcastChannel === "undefined") return undefined;
  return new BroadcastChannel(name);
};
