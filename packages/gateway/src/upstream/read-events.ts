import { type AgUiEvent, EventSchema } from "@agui-outbox/core/protocol";
import { createParser } from "eventsource-parser";
import { GatewayError, GatewayErrorKind } from "../gateway-error";

/** A run cannot be judged without these: one that breaks the schema ends the stream as a protocol error. */
const LIFECYCLE = new Set(["RUN_STARTED", "RUN_FINISHED", "RUN_ERROR"]);

/**
 * The AG-UI events of an upstream SSE body, each checked against the AG-UI
 * schema at this boundary. An event of a kind the schema does not know (a
 * framework's own) is dropped: the gateway's clients validate every event, and
 * one they refuse would end their stream.
 */
export async function* readEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<AgUiEvent> {
  const ready: AgUiEvent[] = [];
  let broken: GatewayError | undefined;
  const parser = createParser({
    onEvent(message) {
      if (broken !== undefined) return;
      let json: unknown;
      try {
        json = JSON.parse(message.data);
      } catch (cause) {
        broken = new GatewayError(
          GatewayErrorKind.upstreamProtocol,
          "the upstream sent an event that is not JSON",
          {
            cause,
          },
        );
        return;
      }
      const parsed = EventSchema.safeParse(json);
      if (parsed.success) {
        ready.push(parsed.data as AgUiEvent);
        return;
      }
      const type = (json as { type?: unknown } | null)?.type;
      if (typeof type === "string" && LIFECYCLE.has(type)) {
        broken = new GatewayError(
          GatewayErrorKind.upstreamProtocol,
          `the upstream sent a ${type} that breaks the AG-UI schema`,
        );
      }
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (broken !== undefined) throw broken;
    while (ready.length > 0) yield ready.shift() as AgUiEvent;
  }
}
