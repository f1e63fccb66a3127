import type { Message } from "../protocol";

/** The tool call an interrupt guards, as the assistant proposed it. */
export interface ProposedCall {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

function parseArgs(text: string): Readonly<Record<string, unknown>> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** Finds the assistant's tool call by id in the thread's messages. */
export function findProposedCall(
  messages: readonly Message[],
  toolCallId: string | undefined,
): ProposedCall | undefined {
  if (!toolCallId) return undefined;
  for (const message of messages) {
    if (message.role !== "assistant" || !message.toolCalls) continue;
    const call = message.toolCalls.find((candidate) => candidate.id === toolCallId);
    if (call) return { name: call.function.name, args: parseArgs(call.function.arguments) };
  }
  return undefined;
}
