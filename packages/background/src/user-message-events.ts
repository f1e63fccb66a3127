import { type AgUiEvent, EventType } from "@agui-outbox/core/protocol";

/**
 * The person's message as events, applied to the thread before the request is
 * sent: every tab mirroring this one shows it too, and the request carries it
 * in `messages`.
 */
export function userMessageEvents(messageId: string, text: string): AgUiEvent[] {
  return [
    { type: EventType.TEXT_MESSAGE_START, messageId, role: "user" },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: text },
    { type: EventType.TEXT_MESSAGE_END, messageId },
  ];
}
