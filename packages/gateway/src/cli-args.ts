import { parseArgs } from "node:util";
import * as z from "zod";
import { GatewayError, GatewayErrorKind } from "./gateway-error";
import { parseStoreSpec, type StoreSpec } from "./open-store";

export interface CliArgs {
  readonly upstream: string;
  readonly port: number;
  readonly host: string;
  readonly store: StoreSpec;
  readonly cors: boolean;
  /** How long a claim or run survives its replica (`claimLeaseMs`); undefined: the library's. */
  readonly leaseMs: number | undefined;
  /** How often lapsed leases are swept (`sweepIntervalMs`); undefined: the library's. */
  readonly sweepMs: number | undefined;
  readonly help: boolean;
}

export const USAGE = `usage: agui-outbox-gateway --upstream <url> [--port 8787] [--host 127.0.0.1]
                           [--store memory|file:<dir>|postgres://…] [--cors]
                           [--lease-ms 30000] [--sweep-ms 5000]

Serves the AG-UI recovery contract at http://<host>:<port>/agent in front of the
AG-UI endpoint <url>. Replicas share one postgres:// store; a dead replica's
claims and runs are taken over once its lease (--lease-ms) lapses.`;

const ArgsSchema = z.object({
  upstream: z.url({ protocol: /^https?$/, error: "--upstream must be an http(s) URL" }),
  port: z.coerce
    .number({ error: "--port must be a number" })
    .int("--port must be a whole number")
    .min(0, "--port must be 0 to 65535")
    .max(65_535, "--port must be 0 to 65535"),
  host: z.string().min(1, "--host must not be empty"),
  store: z.string(),
  cors: z.boolean(),
  "lease-ms": z.coerce.number().int().min(100, "--lease-ms must be a whole number ≥ 100").optional(),
  "sweep-ms": z.coerce.number().int().min(10, "--sweep-ms must be a whole number ≥ 10").optional(),
});

/** The command line, checked; a {@link GatewayError} `invalid_options` names the first bad flag. */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        upstream: { type: "string" },
        port: { type: "string", default: "8787" },
        host: { type: "string", default: "127.0.0.1" },
        store: { type: "string", default: "memory" },
        cors: { type: "boolean", default: false },
        "lease-ms": { type: "string" },
        "sweep-ms": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    }).values;
  } catch (cause) {
    throw new GatewayError(GatewayErrorKind.invalidOptions, (cause as Error).message, { cause });
  }
  if (values.help === true) {
    return {
      upstream: "",
      port: 0,
      host: "",
      store: { kind: "memory" },
      cors: false,
      leaseMs: undefined,
      sweepMs: undefined,
      help: true,
    };
  }
  if (values.upstream === undefined)
    throw new GatewayError(GatewayErrorKind.invalidOptions, "--upstream is required");
  const parsed = ArgsSchema.safeParse(values);
  if (!parsed.success) {
    throw new GatewayError(
      GatewayErrorKind.invalidOptions,
      parsed.error.issues[0]?.message ?? "bad arguments",
    );
  }
  const { upstream, port, host, store, cors } = parsed.data;
  const leaseMs = parsed.data["lease-ms"];
  const sweepMs = parsed.data["sweep-ms"];
  return { upstream, port, host, store: parseStoreSpec(store), cors, leaseMs, sweepMs, help: false };
}
