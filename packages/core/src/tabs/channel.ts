/** The part of `BroadcastChannel` the tab coordinator uses. */
export interface MessageEventLike {
  readonly data: unknown;
}

export type ChannelListener = (event: MessageEventLike) => void;

export interface ChannelLike {
  /** Structured-clones `message` to every other channel of the same name, never to this one. */
  postMessage(message: unknown): void;
  addEventListener(type: "message", listener: ChannelListener): void;
  removeEventListener(type: "message", listener: ChannelListener): void;
  close(): void;
}

/** `undefined`: the platform has no BroadcastChannel. */
export type ChannelFactory = (name: string) => ChannelLike | undefined;

/** Looked up at call time, so importing is SSR-safe. */
export const defaultOpenChannel: ChannelFactory = (name) =>
  typeof BroadcastChannel === "undefined" ? undefined : new BroadcastChannel(name);
