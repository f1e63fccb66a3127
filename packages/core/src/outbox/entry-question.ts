import type { Message } from "../protocol";
import type { PendingInterrupt } from "../thread/thread-state";

/** What the person was asked, kept with the answer: the thread may no longer list it. */
export interface EntryQuestion {
  /** `Interrupt.message`. */
  readonly message?: string;
  /** The guarded tool's name, from the assistant's tool call. */
  readonly toolName?: string;
  /** The tool call's proposed arguments, parsed. */
  readonly proposedArgs?: Readonly<Record<string, unknown>>;
  /** `Interrupt.responseSchema`. */
  readonly responseSchema?: Readonly<Record<string, unknown>>;
}

function parseArgs(text: string): Readonly<Record<string, unknown>> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The question as it stands when the person answers it. */
export function questionOf(interrupt: PendingInterrupt, messages: readonly Message[]): EntryQuestion {
  let toolName: string | undefined;
  let proposedArgs: Readonly<Record<string, unknown>> | undefined;
  if (interrupt.toolCallId)
    for (const message of messages) {
      if (message.role !== "assistant" || !message.toolCalls) continue;
      const call = message.toolCalls.find((candidate) => candidate.id === interrupt.toolCallId);
      if (!call) continue;
      toolName = call.function.name;
      proposedArgs = parseArgs(call.function.arguments);
      break;
    }
  const schema = interrupt.responseSchema as Readonly<Record<string, unknown>> | undefined;
  return {
    ...(interrupt.message === undefined ? {} : { message: interrupt.message }),
    ...(toolName === undefined ? {} : { toolName }),
    ...(proposedArgs === undefined ? {} : { proposedArgs }),
    ...(schema === undefined ? {} : { responseSchema: schema }),
  };
}
