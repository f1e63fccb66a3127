import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { defaultTimers, type Timers } from "./timers";

/** The contract sends `: keepalive` every 15 s; three missed keepalives mean the stream is dead. */
export const DEFAULT_STALL_TIMEOUT_MS = 45_000;

/** Silence allowed past an interval the server declared before the stream counts as stalled. */
export const DECLARED_STALL_GRACE_MS = 5_000;

export interface StallWatchdogOptions {
  /** @default 45_000 */
  readonly timeoutMs?: number;
  /** @default the platform's `setTimeout` / `clearTimeout` */
  readonly timers?: Timers;
  /** Called once, with a `stream_stalled` error. */
  readonly onStall: (error: OutboxError) => void;
}

export interface StallWatchdog {
  /** Restart (or resume) the countdown: call on every chunk of bytes. */
  touch(): void;
  /** Suspend it while nobody waits for bytes. */
  pause(): void;
  /** The server speaks every `intervalMs` (`retry:`): from the next `touch`, stall past it plus the grace. */
  declare(intervalMs: number): void;
  stop(): void;
  readonly fired: boolean;
}

/**
 * Fires `onStall` when no byte arrived for `timeoutMs`, starting armed: a dead connection
 * behind a proxy can stay "open" forever, and this turns the silence into a recoverable error.
 */
export function createStallWatchdog(options: StallWatchdogOptions): StallWatchdog {
  let timeoutMs = options.timeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
  const timers = options.timers ?? defaultTimers;
  let state: "armed" | "paused" | "stopped" | "fired" = "armed";

  const fire = () => {
    if (state !== "armed") return;
    state = "fired";
    options.onStall(
      new OutboxError(ErrorKind.streamStalled, `No data received for ${timeoutMs} ms; the stream is stalled`),
    );
  };
  let handle = timers.setTimeout(fire, timeoutMs);
  return {
    touch() {
      if (state === "armed") timers.clearTimeout(handle);
      else if (state !== "paused") return;
      state = "armed";
      handle = timers.setTimeout(fire, timeoutMs);
    },
    declare(intervalMs) {
      timeoutMs = Math.min(timeoutMs, intervalMs + DECLARED_STALL_GRACE_MS);
    },
    pause() {
      if (state !== "armed") return;
      timers.clearTimeout(handle);
      state = "paused";
    },
    stop() {
      if (state === "armed") timers.clearTimeout(handle);
      if (state !== "fired") state = "stopped";
    },
    get fired() {
      return state === "fired";
    },
  };
}
