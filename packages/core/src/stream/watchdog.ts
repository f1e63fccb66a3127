import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { defaultTimers, type Timers } from "./timers";

/** The contract sends `: keepalive` every 15 s; three missed keepalives mean the stream is dead. */
export const DEFAULT_STALL_TIMEOUT_MS = 45_000;

/** Silence allowed past an interval the server declared before the stream counts as stalled. */
export const DECLARED_STALL_GRACE_MS = 5_000;

export interface StallWatchdogOptions {
  /**
   * How long the stream may stay silent (no byte at all, keepalive comments
   * included) before it is declared stalled.
   * @default 45_000
   */
  readonly timeoutMs?: number;
  /**
   * Timer functions.
   * @default the platform's `setTimeout` / `clearTimeout`
   */
  readonly timers?: Timers;
  /** Called once, with an `OutboxError` of kind `stream_stalled`, when the countdown runs out. */
  readonly onStall: (error: OutboxError) => void;
}

export interface StallWatchdog {
  /**
   * Restart the countdown (or resume it after `pause`): call on every chunk of
   * bytes received. No-op once stopped or fired.
   */
  touch(): void;
  /** Suspend the countdown while nobody is waiting for bytes; `touch` resumes it. */
  pause(): void;
  /**
   * The server declared it speaks every `intervalMs` (`retry:`): from the next
   * `touch`, silence of that plus {@link DECLARED_STALL_GRACE_MS} stalls, if shorter.
   */
  declare(intervalMs: number): void;
  /** Cancel the countdown for good. Idempotent. */
  stop(): void;
  /** True once `onStall` has been called. */
  readonly fired: boolean;
}

/**
 * A countdown that fires `onStall` when no byte arrived for `timeoutMs`. It
 * starts armed: a 200 response that never sends a byte stalls like any other.
 * A dead TCP connection behind a proxy can stay "open" forever; this is what
 * turns that silence into an error the caller can recover from (re-attach).
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
