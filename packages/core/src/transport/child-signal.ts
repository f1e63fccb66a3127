/**
 * The children in flight of each parent signal, and the one listener per parent
 * that aborts them all.
 */
const liveChildren = new WeakMap<AbortSignal, Set<AbortController>>();

function childrenOf(parent: AbortSignal): Set<AbortController> {
  let live = liveChildren.get(parent);
  if (live === undefined) {
    const children = new Set<AbortController>();
    parent.addEventListener(
      "abort",
      () => {
        for (const child of children) child.abort(parent.reason);
      },
      { once: true },
    );
    liveChildren.set(parent, children);
    live = children;
  }
  return live;
}

/**
 * Runs `task` with an abort signal of its own that follows `parent`, and forgets
 * it when the task ends.
 *
 * Why: a fetch adds listeners to the signal it is given, and Node's fetch (undici)
 * releases them only when its request object is garbage-collected. One long-lived
 * signal shared by every request of a client therefore collects a listener per
 * request (1,000 queued answers drained at once left 1,900 of them). A child per
 * request takes those listeners, and `parent` carries a single listener however
 * many requests are in flight.
 */
export async function withChildSignal<T>(
  parent: AbortSignal,
  task: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const child = new AbortController();
  if (parent.aborted) {
    child.abort(parent.reason);
    return task(child.signal);
  }
  const live = childrenOf(parent);
  live.add(child);
  try {
    return await task(child.signal);
  } finally {
    live.delete(child);
  }
}
