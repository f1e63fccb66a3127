import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../../../../", import.meta.url));
const entry = fileURLToPath(new URL("./replica.ts", import.meta.url));

export interface Replica {
  readonly id: string;
  url: string;
  process: ChildProcess;
}

export interface ReplicaSetOptions {
  readonly databaseUrl: string;
  readonly schema: string;
  readonly count: number;
  readonly env?: Readonly<Record<string, string>>;
}

/** Server replicas as real processes (so a test can SIGKILL one), all on one Postgres. */
export class ReplicaSet {
  readonly replicas: Replica[] = [];
  readonly #options: ReplicaSetOptions;

  constructor(options: ReplicaSetOptions) {
    this.#options = options;
  }

  async start(): Promise<void> {
    const ids = Array.from({ length: this.#options.count }, (_, index) => `replica-${index + 1}`);
    const started = await Promise.all(ids.map((id) => this.#spawn(id)));
    this.replicas.push(...started);
  }

  urls(): string[] {
    return this.replicas.filter((replica) => replica.process.exitCode === null).map((replica) => replica.url);
  }

  byId(id: string): Replica {
    const replica = this.replicas.find((candidate) => candidate.id === id);
    if (replica === undefined) throw new Error(`no replica ${id}`);
    return replica;
  }

  /** SIGKILL: no shutdown, no rollback, leases left to lapse. Resolves once the process is gone. */
  async kill(id: string): Promise<void> {
    const replica = this.byId(id);
    if (replica.process.exitCode !== null || replica.process.signalCode !== null) return;
    const gone = new Promise((resolve) => replica.process.once("exit", resolve));
    replica.process.kill("SIGKILL");
    await gone;
  }

  /** Starts a fresh process for a killed replica, under the same id. */
  async restart(id: string): Promise<void> {
    const replica = this.byId(id);
    const fresh = await this.#spawn(id);
    replica.url = fresh.url;
    replica.process = fresh.process;
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.replicas.map(async (replica) => {
        if (replica.process.exitCode !== null || replica.process.signalCode !== null) return;
        const gone = new Promise((resolve) => replica.process.once("exit", resolve));
        replica.process.kill("SIGTERM");
        const timer = setTimeout(() => replica.process.kill("SIGKILL"), 5_000);
        await gone;
        clearTimeout(timer);
      }),
    );
  }

  #spawn(id: string): Promise<Replica> {
    // `node --import tsx` rather than the tsx CLI: one process, so SIGKILL kills the server itself.
    const child = spawn(process.execPath, ["--conditions=@agui-outbox/source", "--import", "tsx", entry], {
      cwd: repo,
      env: {
        ...process.env,
        DATABASE_URL: this.#options.databaseUrl,
        REPLICA_SCHEMA: this.#options.schema,
        REPLICA_ID: id,
        ...this.#options.env,
      },
      // stdin stays open while this process lives: its end tells the replica to stop.
      stdio: ["pipe", "pipe", "pipe"],
    });
    let errors = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      errors += chunk.toString();
    });
    return new Promise((resolve, reject) => {
      let out = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const ready = /READY (\d+)/.exec(out);
        if (ready !== null) resolve({ id, url: `http://127.0.0.1:${ready[1]}`, process: child });
      });
      child.once("exit", (code, signal) =>
        reject(new Error(`${id} exited (${code ?? signal}) before it was ready: ${errors}`)),
      );
    });
  }
}
