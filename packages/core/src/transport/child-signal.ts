/**
 * Runs `task` with an abort signal of its own that follows `parent`, and lets go
 * of `parent` when the task ends.
 *
 * Why: a fetch adds listeners to the signal it is given, and Node's fetch (undici)
 * releases them only when its request object is garbage-collected. One long-lived
 * signal shared by every request of a client therefore collects a listener per
 * request (1,000 queued answers drained at once reached 1,900 of them, with a
 * MaxListenersExceededWarning). A short-lived child per request keeps the
 * long-lived signal down to one listener per request in flight.
 */
export async function withChildSignal<T>(
  parent: AbortSignal,
  task: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const child = new AbortController();
  const follow = () => child.abort(parent.reason);
  if (parent.aborted) follow();
  else parent.addEventListener("abort", follow, { once: true });
  try {
    return await task(child.signal);
  } finally {
    parent.removeEventListener("abort", follow);
  }
}
