import { isFinalState, type OutboxEntry } from "@agui-outbox/core";
import { useEffect, useRef } from "react";

/** Callbacks a hook calls as its answer moves on (TanStack Query's `onSuccess`/`onSettled`). */
export interface VerdictCallbacks {
  /** Each time an answer this hook saw unsettled reaches a verdict (applied, elsewhere, lost, needs you, expired). */
  readonly onVerdict?: (entry: OutboxEntry) => void;
  /**
   * When an answer is done: after its verdict, or after `answer()` failed to write
   * it (then `entry` is undefined and `error` says why).
   */
  readonly onSettled?: (entry: OutboxEntry | undefined, error: Error | null) => void;
}

/**
 * Calls `onVerdict`/`onSettled` once per answer reaching a verdict. An entry that
 * was already final when the hook first saw it (a reload of a settled card) calls
 * nothing: the callbacks report what happens, not what happened before.
 */
export function useVerdictCallbacks(
  entry: OutboxEntry | undefined,
  error: Error | null,
  callbacks: VerdictCallbacks,
): void {
  const latest = useRef(callbacks);
  latest.current = callbacks;
  // Keys of entries seen before their verdict, and of those already reported.
  const unsettled = useRef(new Set<string>());
  const reported = useRef(new Set<string>());
  const current = useRef(entry);
  current.current = entry;
  const key = entry?.key;
  const final = entry ? isFinalState(entry.state) : false;

  // Runs when the answer (its key) or its finality changes, not on every store update.
  useEffect(() => {
    const entry = current.current;
    if (!entry || key === undefined) return;
    if (!final) {
      unsettled.current.add(key);
      reported.current.delete(key);
      return;
    }
    if (!unsettled.current.has(key) || reported.current.has(key)) return;
    reported.current.add(key);
    unsettled.current.delete(key);
    latest.current.onVerdict?.(entry);
    latest.current.onSettled?.(entry, null);
  }, [key, final]);

  useEffect(() => {
    if (error) latest.current.onSettled?.(undefined, error);
  }, [error]);
}
