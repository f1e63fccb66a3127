import * as z from "zod";
import type { CheckTarget } from "./check-wire";
import { ConformanceError, ConformanceErrorKind } from "./conformance-error";

const httpUrl = (name: string) => z.url({ protocol: /^https?$/, error: `${name} must be an http(s) URL` });

/** Where a server's endpoint and its optional hooks are, as the CLI and its config give them. */
export const HttpTargetOptionsSchema = z.object({
  /** The AG-UI endpoint (what a client POSTs runs to). */
  agentUrl: httpUrl("<agent-url>"),
  /** GET answers `{ executions: [{ threadId }] }`. */
  ledger: httpUrl("--ledger").optional(),
  /** POST `{ faults }` arms faults (the mock's `/__chaos` format). */
  chaos: httpUrl("--chaos").optional(),
  ask: z
    .object({
      one: z.string().min(1, "the message must not be empty").optional(),
      two: z.string().min(1, "the message must not be empty").optional(),
    })
    .strict()
    .optional(),
});
export type HttpTargetOptions = z.infer<typeof HttpTargetOptionsSchema>;

const LedgerSchema = z.object({ executions: z.array(z.object({ threadId: z.string() })) });

/** A check target for any server over plain HTTP: hooks exist only where URLs were given. */
export function httpTarget(options: HttpTargetOptions): CheckTarget {
  const { ledger, chaos, ask } = options;
  const agentUrl = options.agentUrl.replace(/\/+$/, "");
  return {
    url: new URL(agentUrl).origin,
    agentUrl,
    ...(ask === undefined ? {} : { ask }),
    ...(ledger === undefined ? {} : { ledger: () => readLedger(ledger) }),
    ...(chaos === undefined ? {} : { chaos: (faults) => armChaos(chaos, faults) }),
  };
}

async function readLedger(url: string) {
  const response = await fetch(url);
  const parsed = LedgerSchema.safeParse(response.ok ? await response.json() : undefined);
  if (!parsed.success)
    throw new ConformanceError(
      ConformanceErrorKind.badLedger,
      `${url}: HTTP ${response.status}, not a ledger`,
    );
  return parsed.data.executions;
}

async function armChaos(url: string, faults: readonly Record<string, unknown>[]) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ faults }),
  });
  if (!response.ok)
    throw new ConformanceError(ConformanceErrorKind.chaosRefused, `${url}: HTTP ${response.status}`);
}
