import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../../../../", import.meta.url));
const cli = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));

export interface GatewayReplica {
  readonly id: string;
  /** Base URL; the contract's routes are under `${url}/agent`. */
  readonly url: string;
  readonly process: ChildProcess;
}

export interface GatewayReplicaOptions {
  /** The upstream's run endpoint. */
  readonly upstream: string;
  /** `postgres://…`: the store and the thread lock every replica shares. */
  readonly store: string;
  readonly count: number;
  /** @default 2000 (a dead replica's runs and claims are taken over this long after it died) */
  readonly leaseMs?: number;
  /** @default 200 */
  readonly sweepMs?: number;
}

/**
 * Gateway replicas as real processes, each the command a person runs
 * (`agui-outbox-gateway --store postgres://…`), so a test can SIGKILL one.
 */
export class GatewayReplicas {
  readonly replicas: GatewayReplica[] = [];
  readonly #options: GatewayReplicaOptions;
  readonly #killAll = () => {
    for (const replica of this.replicas) replica.process.kill("SIGKILL");
  };

  constructor(options: GatewayReplicaOptions) {
    this.#options = options;
    // Never outlive the process that started them, even when it dies of an error.
    process.once("exit", this.#killAll);
  }

  async start(): Promise<void> {
    const ids = Array.from({ length: this.#options.count }, (_, index) => `gateway-${index + 1}`);
    this.replicas.push(...(await Promise.all(ids.map((id) => this.#spawn(id)))));
  }

  byId(id: string): GatewayReplica {
    const replica = this.replicas.find((candidate) => candidate.id === id);
    if (replica === undefined) throw new Error(`no replica ${id}`);
    return replica;
  }

  /** The replicas still running. */
  live(): GatewayReplica[] {
    return this.replicas.filter(({ process }) => process.exitCode === null && process.signalCode === null);
  }

  /** SIGKILL: no shutdown, no rollback; its leases are left to lapse. Resolves once it is gone. */
  async kill(id: string): Promise<void> {
    const { process } = this.byId(id);
    if (process.exitCode !== null || process.signalCode !== null) return;
    const gone = new Promise((resolve) => process.once("exit", resolve));
    process.kill("SIGKILL");
    await gone;
  }

  /** A fresh process under a killed replica's id (on a new port). */
  async restart(id: string): Promise<void> {
    const index = this.replicas.findIndex((replica) => replica.id === id);
    this.replicas[index] = await this.#spawn(id);
  }

  async stop(): Promise<void> {
    process.off("exit", this.#killAll);
    await Promise.all(
      this.live().map(async ({ process }) => {
        const gone = new Promise((resolve) => process.once("exit", resolve));
        process.kill("SIGTERM");
        const timer = setTimeout(() => process.kill("SIGKILL"), 5_000);
        await gone;
        clearTimeout(timer);
      }),
    );
  }

  #spawn(id: string): Promise<GatewayReplica> {
    const { upstream, store, leaseMs, sweepMs } = this.#options;
    // `node --import tsx` rather than the tsx CLI: one process, so SIGKILL kills the gateway itself.
    const child = spawn(
      process.execPath,
      [
        "--conditions=@agui-outbox/source",
        "--import",
        "tsx",
        cli,
        ...["--upstream", upstream, "--store", store, "--port", "0"],
        ...["--lease-ms", String(leaseMs ?? 2_000), "--sweep-ms", String(sweepMs ?? 200)],
      ],
      { cwd: repo, stdio: ["ignore", "pipe", "pipe"] },
    );
    let printed = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      printed += chunk.toString("utf8");
      if (process.env.GATEWAY_REPLICAS_DEBUG) process.stderr.write(`[${id}] ${chunk.toString("utf8")}`);
    });
    child.once("exit", (code, signal) => {
      if (process.env.GATEWAY_REPLICAS_DEBUG) process.stderr.write(`[${id}] exit ${code ?? signal}\n`);
    });
    return new Promise((resolve, reject) => {
      child.stdout?.on("data", (chunk: Buffer) => {
        printed += chunk.toString("utf8");
        const found = /gateway: (http:\/\/[^/\s]+)\/agent/.exec(printed);
        if (found?.[1] !== undefined) resolve({ id, url: found[1], process: child });
      });
      child.once("exit", (code, signal) =>
        reject(new Error(`${id} exited (${code ?? signal}) before it listened: ${printed}`)),
      );
    });
  }
}
