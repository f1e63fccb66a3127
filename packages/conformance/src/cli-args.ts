import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type * as z from "zod";
import { ConformanceError, ConformanceErrorKind } from "./conformance-error";
import { type HttpTargetOptions, HttpTargetOptionsSchema } from "./http-target";

export interface CliArgs {
  readonly target: HttpTargetOptions;
  readonly json: boolean;
  readonly help: boolean;
}

export const USAGE = `usage: agui-outbox-conformance <agent-url> [--config <file>] [--json]
                               [--ledger <url>] [--chaos <url>]
                               [--ask <message>] [--ask-two <message>]

Runs the AG-UI recovery contract's checks against the AG-UI endpoint <agent-url> and
prints a table, then "N passed, N failed". Exits 1 when a check fails, 2 on bad input.

  --ledger <url>     GET answers { "executions": [{ "threadId": … }] }, the tool's runs;
                     without it the checks that count executions say "not observed"
  --chaos <url>      POST { "faults": [ … ] } arms faults for a thread; without it the
                     checks that need faults say "skipped: needs --chaos"
  --ask <message>    the user message that makes the server ask one approval
  --ask-two <msg>    the one that makes it ask two approvals in one turn
  --config <file>    the same as JSON: { "agentUrl", "ledger", "chaos", "ask": { "one", "two" } }
  --json             print the results as JSON instead of the table`;

/** The config file's shape: the flags' names, every one optional (flags win). */
const ConfigSchema = HttpTargetOptionsSchema.partial().strict();

/** Reads a file's text; injected so tests need no files. */
export type ReadText = (path: string) => string;

/**
 * The command line and its config file, checked; a {@link ConformanceError} names the
 * first bad flag or config field.
 */
export function parseCliArgs(
  argv: readonly string[],
  readText: ReadText = (path) => readFileSync(path, "utf8"),
): CliArgs {
  let parsed: ReturnType<typeof parseFlags>;
  try {
    parsed = parseFlags(argv);
  } catch (cause) {
    throw new ConformanceError(ConformanceErrorKind.invalidArgs, (cause as Error).message, { cause });
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { target: { agentUrl: "" }, json: false, help: true };
  if (positionals.length > 1)
    throw new ConformanceError(
      ConformanceErrorKind.invalidArgs,
      `one <agent-url>, not ${positionals.length}`,
    );
  const config = values.config === undefined ? {} : readConfig(values.config, readText);
  const flags = {
    agentUrl: positionals[0],
    ledger: values.ledger,
    chaos: values.chaos,
    ask:
      values.ask === undefined && values["ask-two"] === undefined
        ? undefined
        : { one: values.ask, two: values["ask-two"] },
  };
  const merged = {
    agentUrl: flags.agentUrl ?? config.agentUrl,
    ledger: flags.ledger ?? config.ledger,
    chaos: flags.chaos ?? config.chaos,
    ask: { ...config.ask, ...withoutUndefined(flags.ask ?? {}) },
  };
  if (merged.agentUrl === undefined)
    throw new ConformanceError(ConformanceErrorKind.invalidArgs, "<agent-url> is required");
  const checked = HttpTargetOptionsSchema.safeParse(withoutUndefined(merged));
  if (!checked.success)
    throw new ConformanceError(ConformanceErrorKind.invalidArgs, firstIssue(checked.error));
  return { target: checked.data, json: values.json === true, help: false };
}

function parseFlags(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      config: { type: "string" },
      json: { type: "boolean", default: false },
      ledger: { type: "string" },
      chaos: { type: "string" },
      ask: { type: "string" },
      "ask-two": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
}

function readConfig(path: string, readText: ReadText): z.infer<typeof ConfigSchema> {
  let json: unknown;
  try {
    json = JSON.parse(readText(path));
  } catch (cause) {
    throw new ConformanceError(ConformanceErrorKind.invalidConfig, `${path}: ${(cause as Error).message}`, {
      cause,
    });
  }
  const parsed = ConfigSchema.safeParse(json);
  if (!parsed.success)
    throw new ConformanceError(ConformanceErrorKind.invalidConfig, `${path}: ${firstIssue(parsed.error)}`);
  return parsed.data;
}

/** `field: message`, so the person knows which flag or key to fix. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return "invalid";
  return issue.path.length === 0 ? issue.message : `${issue.path.join(".")}: ${issue.message}`;
}

// `exactOptionalPropertyTypes`: an absent flag must be absent, not `undefined`.
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
