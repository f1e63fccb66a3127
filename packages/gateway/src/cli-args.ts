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
  readonly help: boolean;
}

export const USAGE = `usage: agui-outbox-gateway --upstream <url> [--port 8787] [--host 127.0.0.1]
                           [--store memory|file:<dir>|postgres://…] [--cors]

Serves the AG-UI recovery contract at http://<host>:<port>/agent in front of the
AG-UI endpoint <url>.`;

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
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    }).values;
  } catch (cause) {
    throw new GatewayError(GatewayErrorKind.invalidOptions, (cause as Error).message, { cause });
  }
  if (values.help === true) {
    return { upstream: "", port: 0, host: "", store: { kind: "memory" }, cors: false, help: true };
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
  return { upstream, port, host, store: parseStoreSpec(store), cors, help: false };
}
