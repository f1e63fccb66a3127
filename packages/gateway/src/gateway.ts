import {
  type ContractServer,
  type ContractServerOptions,
  createContractServer,
  type NodeHandler,
  type NodeHandlerOptions,
} from "@agui-outbox/server";
import { GatewayError, GatewayErrorKind } from "./gateway-error";
import { type ProxyDeps, proxyAgent } from "./proxy-agent";
import { pickHeaders, setRequestContext } from "./request-context";
import { ResponseHold } from "./response-hold";
import { InProcessThreadLock, type ThreadLock } from "./thread-lock";
import { type FetchLike, postWithFetch, postWithNodeHttp } from "./upstream/upstream-post";
import { upstreamHydration } from "./upstream-hydration";

/** The server library's options the gateway takes as they are; the agent is the upstream. */
type LibraryOptions = Omit<
  ContractServerOptions,
  "agent" | "tools" | "hydrate" | "background" | "beforeClaim" | "afterClaim" | "identity"
>;

export interface GatewayOptions extends LibraryOptions {
  /** The upstream's AG-UI run endpoint, e.g. `http://127.0.0.1:8000/agent`. */
  readonly upstream: string;
  /** Request headers passed on to the upstream. @default ["authorization"] */
  readonly forwardHeaders?: readonly string[];
  /** How the upstream is read. @default node:http(s) */
  readonly fetch?: FetchLike;
  /** How long a hydration waits for the upstream's view of the thread. @default 10000 */
  readonly hydrateTimeoutMs?: number;
  /** Published in capabilities. @default { name: "agui-outbox gateway" } */
  readonly name?: string;
  /**
   * One upstream run per thread at a time. Replicas on one Postgres need
   * `PostgresThreadLock` (`@agui-outbox/gateway/postgres`); closed by `close`.
   * @default an InProcessThreadLock (this process only)
   */
  readonly threadLock?: ThreadLock;
}

export interface Gateway {
  /** The recovery contract's routes in front of the upstream, as a node:http listener or Express middleware. */
  handler(options?: NodeHandlerOptions): NodeHandler;
  /** The server library underneath (sweeps, shutdown, the engine). */
  readonly server: ContractServer;
  /** Ends live runs with a retryable `RUN_ERROR`, stops the sweeper, closes the store and the thread lock. */
  close(): Promise<void>;
}

/** Headers the upstream needs to take a forwarded run as the caller's own. */
const ALWAYS_FORWARDED = ["idempotency-key"];

/** `POST {base}`: a run, a resume or a hydration. */
function isRunRoute(url: string | undefined, base: string): boolean {
  return new URL(url ?? "/", "http://localhost").pathname.replace(/\/$/, "") === base;
}

function checkedUpstream(upstream: string): string {
  let url: URL;
  try {
    url = new URL(upstream);
  } catch {
    throw new GatewayError(GatewayErrorKind.invalidOptions, "upstream must be an absolute http(s) URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new GatewayError(GatewayErrorKind.invalidOptions, "upstream must be an http(s) URL");
  }
  return url.href;
}

/**
 * The recovery contract in front of any AG-UI endpoint:
 *
 * ```ts
 * const gateway = createGateway({ upstream: "http://127.0.0.1:8000/agent", store: new MemoryStore() });
 * createHttpServer(gateway.handler()).listen(8787);
 * ```
 */
export function createGateway(options: GatewayOptions): Gateway {
  const { upstream, forwardHeaders, fetch, hydrateTimeoutMs, name, threadLock, ...library } = options;
  const lock: ThreadLock = threadLock ?? new InProcessThreadLock();
  let engine: ContractServer["engine"] | undefined;
  const deps: ProxyDeps = {
    upstream: checkedUpstream(upstream),
    post: fetch === undefined ? postWithNodeHttp : postWithFetch(fetch),
    store: options.store,
    lock,
    // The agent runs only once the server below exists.
    settings: () => (engine as ContractServer["engine"]).options,
  };
  const server = createContractServer({
    ...library,
    agent: proxyAgent(deps),
    hydrate: upstreamHydration(deps, hydrateTimeoutMs ?? 10_000),
    identity: { name: name ?? "agui-outbox gateway" },
  });
  engine = server.engine;
  const forwarded = [...(forwardHeaders ?? ["authorization"]), ...ALWAYS_FORWARDED];
  return {
    server,
    handler(handlerOptions) {
      const inner = server.handler(handlerOptions);
      const base = (handlerOptions?.basePath ?? "/agent").replace(/\/$/, "");
      return (req, res, next) => {
        // Only a run's status can wait for the upstream; re-attach and reads answer at once.
        const hold = req.method === "POST" && isRunRoute(req.url, base) ? new ResponseHold(res) : undefined;
        const headers = pickHeaders(req.headers, forwarded);
        setRequestContext(req, { headers, hold });
        return inner(req, hold?.response ?? res, next);
      };
    },
    async close() {
      await server.close();
      await lock.close?.();
    },
  };
}
