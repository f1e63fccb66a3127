import { ContractEngine } from "./engine/contract-engine";
import { type ContractServerOptions, resolveServerOptions } from "./engine/options";
import { createNodeHandler, type NodeHandler, type NodeHandlerOptions } from "./http/node-handler";

export interface ContractServer {
  readonly engine: ContractEngine;
  /** The routes as a node:http listener or Express middleware. */
  handler(options?: NodeHandlerOptions): NodeHandler;
  /** Takes lapsed claims and orphaned runs and prunes past retention now (the interval does it too). */
  sweep(): Promise<void>;
  /**
   * Stops this instance as if its process died: no rollback, no `RUN_ERROR`,
   * claims and leases left for another instance's sweeper (see
   * {@link ContractEngine.abandon}); the sweeper stops and every request after
   * it has its connection closed. The store stays open: close it yourself.
   */
  abandon(): void;
  /** Ends this instance's live runs with a retryable `RUN_ERROR`, stops the sweeper, closes the store. */
  close(): Promise<void>;
}

/**
 * The recovery contract around the team's own agent and tools:
 *
 * ```ts
 * const server = createContractServer({ store, agent, tools: { deploy: { execute: deploy } } });
 * http.createServer(server.handler()).listen(8000);
 * ```
 */
export function createContractServer(options: ContractServerOptions): ContractServer {
  const resolved = resolveServerOptions(options);
  const engine = new ContractEngine(resolved);
  let sweeping = false;
  const stopSweeper =
    resolved.sweepIntervalMs > 0
      ? resolved.clock.every(resolved.sweepIntervalMs, () => {
          if (sweeping || engine.abandoned) return;
          sweeping = true;
          engine
            .sweep()
            // The next tick sweeps again; a lapsed lease waits at most one interval more.
            .catch(() => {})
            .finally(() => {
              sweeping = false;
            });
        })
      : () => {};
  // A restart with the same instanceId ends its earlier life's runs now; `await server.sweep()` to be sure before serving.
  // A failure here is not lost: every sweep closes orphaned runs again.
  engine.closeOrphanedRuns().catch(() => {});
  return {
    engine,
    handler: (handlerOptions) => createNodeHandler(engine, handlerOptions),
    sweep: () => engine.sweep(),
    abandon() {
      stopSweeper();
      engine.abandon();
    },
    async close() {
      stopSweeper();
      await engine.shutdown();
      await resolved.store.close();
    },
  };
}
