// Mock server replicas as real processes on one Postgres: each is the mock's contract mode
// (packages/mock-server/src/cli.ts, MOCK_STORE=postgres) under an instance id of its own, on a
// port kept across restarts. A replica that dies (SIGKILL, or exit 70 after a `crash` fault) is
// started again after a short pause; any other exit is a broken replica and ends the fleet.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const entry = fileURLToPath(new URL("../../../packages/mock-server/src/cli.ts", import.meta.url));
/** The mock's exit code after a `crash` fault (packages/mock-server/src/cli.ts). */
const CRASH_EXIT_CODE = 70;
/** A dead replica stays down this long before it restarts, as a real one would while rescheduled. */
const RESTART_PAUSE_MS = 300;
/** A brake: a fleet whose replicas restart this often in total is broken, not chaotic. */
const MAX_RESTARTS = 5_000;

export interface ReplicaState {
  readonly id: string;
  readonly port: number;
  readonly url: string;
  /** The live process, or undefined while the replica is down. */
  process: ChildProcess | undefined;
  ready: boolean;
  deaths: number;
}

export interface FleetOptions {
  readonly databaseUrl: string;
  readonly ports: readonly number[];
  readonly env?: Readonly<Record<string, string>>;
  /** A replica exited in a way no fault explains: the caller stops everything. */
  readonly onBroken: (reason: string) => void;
  readonly log: (line: string) => void;
}

export class ReplicaFleet {
  readonly replicas: ReplicaState[];
  readonly #options: FleetOptions;
  #stopping = false;
  #restarts = 0;

  constructor(options: FleetOptions) {
    this.#options = options;
    this.replicas = options.ports.map((port, index) => ({
      id: `replica-${index + 1}`,
      port,
      url: `http://127.0.0.1:${port}`,
      process: undefined,
      ready: false,
      deaths: 0,
    }));
  }

  async start(): Promise<void> {
    await Promise.all(this.replicas.map((replica) => this.#spawn(replica)));
  }

  /** The replicas a balancer may send to now (a dead one that is not yet noticed refuses, and is skipped). */
  liveUrls(): string[] {
    return this.replicas.filter((replica) => replica.ready).map((replica) => replica.url);
  }

  byId(id: string): ReplicaState | undefined {
    return this.replicas.find((replica) => replica.id === id);
  }

  /** SIGKILL: no shutdown, no rollback, claims and leases left to lapse; the fleet restarts it. */
  kill(replica: ReplicaState): boolean {
    if (replica.process === undefined || !replica.ready) return false;
    replica.ready = false;
    replica.process.kill("SIGKILL");
    return true;
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    await Promise.all(
      this.replicas.map(async (replica) => {
        const child = replica.process;
        if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
        const gone = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await gone;
        clearTimeout(timer);
      }),
    );
  }

  #spawn(replica: ReplicaState): Promise<void> {
    // `node --import tsx` and the mock's child entry directly: one process per replica, so a
    // SIGKILL kills the server itself and not a wrapper around it.
    const child = spawn(process.execPath, ["--conditions=@agui-outbox/source", "--import", "tsx", entry], {
      cwd: repo,
      env: {
        ...process.env,
        ...this.#options.env,
        MOCK_SERVER_CHILD: "1",
        MOCK_STORE: "postgres",
        DATABASE_URL: this.#options.databaseUrl,
        MOCK_INSTANCE_ID: replica.id,
        PORT: String(replica.port),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    replica.process = child;
    replica.ready = false;
    child.stderr?.on("data", (chunk: Buffer) =>
      this.#options.log(`${replica.id}: ${chunk.toString().trim()}`),
    );
    return new Promise((resolve, reject) => {
      let out = "";
      let served = false;
      child.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (!served && out.includes("[mock] fixed mode on")) {
          served = true;
          replica.ready = true;
          resolve();
        }
      });
      child.once("exit", (code, signal) => {
        const wasReady = served;
        replica.ready = false;
        replica.process = undefined;
        if (this.#stopping) return resolve();
        const died = signal === "SIGKILL" || code === CRASH_EXIT_CODE;
        if (!died || !wasReady) {
          const reason = `${replica.id} exited (${code ?? signal}) ${wasReady ? "unexpectedly" : "before it was ready"}`;
          reject(new Error(reason));
          this.#options.onBroken(reason);
          return;
        }
        replica.deaths += 1;
        this.#restarts += 1;
        if (this.#restarts > MAX_RESTARTS) {
          this.#options.onBroken(`replicas restarted ${this.#restarts} times`);
          return;
        }
        this.#options.log(
          `${replica.id} died (${signal ?? `exit ${code}`}); restarting in ${RESTART_PAUSE_MS} ms`,
        );
        setTimeout(() => {
          // A restart that fails is already reported: its exit handler calls onBroken.
          if (!this.#stopping) this.#spawn(replica).catch(() => undefined);
        }, RESTART_PAUSE_MS);
      });
    });
  }
}
