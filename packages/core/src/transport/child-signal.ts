/** The children in flight of each parent signal, and the one listener per parent that aborts them all. */
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
 * Runs `task` with its own signal that follows `parent`. Node's fetch (undici) releases the
 * listeners it adds only when its request is collected: 1,000 answers drained on one shared
 * signal left 1,900 listeners. A child per request keeps one listener on `parent`.
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
