// The stream benchmark's recording, shared by its Node and Chromium sides (no Node
// imports: the page bundles it). A run as the mock server writes it (`id:
// <runId>:<seq>`, the `x-stream` cursor in metadata, LF endings), with the event mix
// of an agent that thinks aloud and uses tools: per turn a step, a streamed assistant
// message, a tool call with streamed arguments, its result, a state delta and a
// custom progress event. About four in five events are deltas.
import type { Message } from "../../packages/core/src/protocol/index.ts";

export const THREAD_ID = "thread-bench";
export const RUN_ID = "run-bench";

const SENTENCE = "The deployment plan checks each region's health before it moves traffic. ";

/** A thread's earlier messages: a user turn, then an assistant reply with a tool call and its result. */
export function history(count: number): Message[] {
  const messages: Message[] = [];
  for (let index = 0; messages.length < count; index += 1) {
    const turn: Message[] = [
      { id: `h-user-${index}`, role: "user", content: `Question ${index}: ${SENTENCE}` },
      {
        id: `h-assistant-${index}`,
        role: "assistant",
        content: SENTENCE.repeat(3),
        toolCalls: [
          {
            id: `h-call-${index}`,
            type: "function",
            function: { name: "check_region", arguments: `{"region":"eu-${index}"}` },
          },
        ],
      },
      { id: `h-tool-${index}`, role: "tool", toolCallId: `h-call-${index}`, content: '{"healthy":true}' },
    ];
    messages.push(...turn.slice(0, count - messages.length));
  }
  return messages;
}

/** Events in one turn of the recording. */
const TURN_EVENTS = 48;

/** The recorded run: `events` frames exactly, RUN_STARTED first and RUN_FINISHED last. */
export function recordedRun(events: number): string {
  const frames: string[] = [];
  let seq = 0;
  const push = (event: Record<string, unknown>) => {
    seq += 1;
    const data = { ...event, metadata: { "x-stream": { runId: RUN_ID, seq } } };
    frames.push(`id: ${RUN_ID}:${seq}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  push({ type: "RUN_STARTED", threadId: THREAD_ID, runId: RUN_ID });
  // Whole turns only (a verifying client refuses a run that ends inside a step or
  // a message); custom events fill the rest.
  const turns = Math.floor((events - 2) / TURN_EVENTS);
  for (let turn = 0; turn < turns; turn += 1) {
    const messageId = `m-${turn}`;
    const toolCallId = `call-${turn}`;
    const turnEvents: Record<string, unknown>[] = [
      { type: "STEP_STARTED", stepName: `step-${turn}` },
      { type: "TEXT_MESSAGE_START", messageId, role: "assistant" },
    ];
    for (let token = 0; token < 30; token += 1) {
      turnEvents.push({ type: "TEXT_MESSAGE_CONTENT", messageId, delta: `token ${token} of turn ${turn} ` });
    }
    turnEvents.push(
      { type: "TEXT_MESSAGE_END", messageId },
      { type: "TOOL_CALL_START", toolCallId, toolCallName: "deploy_change", parentMessageId: messageId },
    );
    for (let part = 0; part < 8; part += 1) {
      turnEvents.push({
        type: "TOOL_CALL_ARGS",
        toolCallId,
        delta: part === 0 ? '{"target":"' : `part-${part}`,
      });
    }
    turnEvents.push(
      { type: "TOOL_CALL_ARGS", toolCallId, delta: '"}' },
      { type: "TOOL_CALL_END", toolCallId },
      {
        type: "TOOL_CALL_RESULT",
        messageId: `r-${turn}`,
        toolCallId,
        role: "tool",
        content: JSON.stringify({ deployed: true, region: `eu-${turn}`, note: SENTENCE }),
      },
      {
        type: "STATE_DELTA",
        delta: [
          { op: "add", path: "/progress", value: turn },
          { op: "add", path: `/region-${turn}`, value: { name: `eu-${turn}`, healthy: true } },
        ],
      },
      { type: "CUSTOM", name: "progress", value: { turn, percent: turn % 100 } },
      { type: "STEP_FINISHED", stepName: `step-${turn}` },
    );
    for (const event of turnEvents) push(event);
  }
  while (seq < events - 1) push({ type: "CUSTOM", name: "heartbeat", value: seq });
  push({ type: "RUN_FINISHED", threadId: THREAD_ID, runId: RUN_ID, outcome: { type: "success" } });
  return frames.join("");
}

/** The body of the run request every reader but HttpAgent sends. */
export function runInput(): string {
  return JSON.stringify({
    threadId: THREAD_ID,
    runId: RUN_ID,
    state: {},
    messages: [],
    tools: [],
    context: [],
  });
}
