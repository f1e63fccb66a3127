import { type RunAgentInput, RunAgentInputSchema } from "@agui-outbox/core/protocol";
import { ServerCode } from "../server-codes";
import { idProblem } from "./ids";

// Fatal: bytes that are not UTF-8 would otherwise all decode to U+FFFD, and two ids to one.
const utf8 = new TextDecoder("utf-8", { fatal: true });

export type ParsedRunInput =
  | { readonly ok: true; readonly input: RunAgentInput }
  | {
      readonly ok: false;
      readonly code: "INVALID_JSON" | "INVALID_REQUEST" | typeof ServerCode.INVALID_ID;
      readonly message: string;
    };

/**
 * Parses a `POST /agent` body. Lenient where AG-UI clients commonly differ:
 * `tools` and `context` default to `[]`, a missing `runId` is minted and a
 * missing `messages` reads as `[]`. Error messages name fields, never values.
 */
export function parseRunInput(raw: Buffer, mintRunId: () => string): ParsedRunInput {
  let json: unknown;
  try {
    json = JSON.parse(utf8.decode(raw));
  } catch {
    return { ok: false, code: "INVALID_JSON", message: "the request body is not valid UTF-8 JSON" };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return { ok: false, code: "INVALID_REQUEST", message: "the request body must be a RunAgentInput object" };
  }
  const record = json as Record<string, unknown>;
  if (typeof record.threadId !== "string" || record.threadId.length === 0) {
    return { ok: false, code: "INVALID_REQUEST", message: "threadId is required (a non-empty string)" };
  }
  const withDefaults = {
    ...record,
    runId: record.runId ?? mintRunId(),
    messages: record.messages ?? [],
    tools: record.tools ?? [],
    context: record.context ?? [],
  };
  const parsed = RunAgentInputSchema.safeParse(withDefaults);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first === undefined || first.path.length === 0 ? "body" : first.path.join(".");
    return {
      ok: false,
      code: "INVALID_REQUEST",
      message: `invalid RunAgentInput at ${where}: ${first?.message}`,
    };
  }
  const input = parsed.data as RunAgentInput;
  if (input.runId.length === 0) {
    return { ok: false, code: "INVALID_REQUEST", message: "runId must be a non-empty string" };
  }
  const badId = idProblem(input.threadId, "threadId") ?? idProblem(input.runId, "runId");
  if (badId !== undefined) return { ok: false, code: ServerCode.INVALID_ID, message: badId };
  const ids = new Set<string>();
  for (const entry of input.resume ?? []) {
    const badInterrupt = idProblem(entry.interruptId, "resume[].interruptId");
    if (badInterrupt !== undefined) return { ok: false, code: ServerCode.INVALID_ID, message: badInterrupt };
    if (ids.has(entry.interruptId)) {
      return { ok: false, code: "INVALID_REQUEST", message: "resume answers the same interruptId twice" };
    }
    ids.add(entry.interruptId);
  }
  return { ok: true, input };
}
