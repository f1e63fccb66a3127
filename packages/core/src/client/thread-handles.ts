import type { ThreadRegistry } from "../thread/thread-registry";
import type { ThreadRunner } from "../thread/thread-runner";
import type { ThreadHandle } from "./client-types";

/** One handle per thread, made on first use: its store, and sends and reads that start the client first. */
export function threadHandles(
  threads: ThreadRegistry,
  runner: ThreadRunner,
  start: () => Promise<void>,
): (threadId: string) => ThreadHandle {
  const handles = new Map<string, ThreadHandle>();
  return (threadId) => {
    let handle = handles.get(threadId);
    if (!handle) {
      handle = {
        threadId,
        store: threads.store(threadId),
        send: async (text) => {
          await start();
          await runner.send(threadId, text);
        },
        hydrate: async () => {
          await start();
          await runner.hydrate(threadId);
        },
      };
      handles.set(threadId, handle);
    }
    return handle;
  };
}
