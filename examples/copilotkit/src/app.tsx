import { DurableEventName, DurableRunErrorCode, type VerdictDetail } from "@agui-outbox/agent";
import { describeDecision, describeVerdict } from "@agui-outbox/react";
import { useAgent, useCopilotKit, useInterrupt } from "@copilotkit/react-core/v2";
import { type FormEvent, useEffect, useState, useSyncExternalStore } from "react";
import { agent as durable } from "./agent";
import { ApprovalCard } from "./approval-card";

const VERDICT: Record<VerdictDetail["verdict"], string> = {
  applied: "Applied",
  answered_elsewhere: "Answered elsewhere",
  lost: "Lost",
  needs_you: "Needs you",
  expired: "Expired",
  invalid: "Not accepted",
};

function useOutbox() {
  const outbox = useSyncExternalStore(durable.client.outbox.subscribe, durable.client.outbox.getState);
  const connection = useSyncExternalStore(
    durable.client.connection.subscribe,
    durable.client.connection.getState,
  );
  return { outbox, connection };
}

/** What the agent's verdict events and typed run errors said last. */
function useLastVerdict() {
  const [verdict, setVerdict] = useState<VerdictDetail | null>(null);
  const [runError, setRunError] = useState<string | null>(null);
  useEffect(() => {
    const subscription = durable.subscribe({
      onRunStartedEvent: () => setRunError(null),
      onCustomEvent: ({ event }) => {
        if (event.name === DurableEventName.verdict) setVerdict(event.value as VerdictDetail);
      },
      onRunErrorEvent: ({ event }) => {
        const known = Object.values(DurableRunErrorCode) as string[];
        setRunError(known.includes(event.code ?? "") ? null : event.message);
      },
    });
    return () => subscription.unsubscribe();
  }, []);
  return { verdict, runError };
}

export function App() {
  const { agent } = useAgent();
  const { copilotkit } = useCopilotKit();
  const { outbox, connection } = useOutbox();
  const { verdict, runError } = useLastVerdict();
  const [draft, setDraft] = useState("");

  // CopilotKit's chat does this on mount: restore the thread, and follow answers in flight.
  useEffect(() => {
    void copilotkit.connectAgent({ agent });
  }, [copilotkit, agent]);

  const card = useInterrupt({
    renderInChat: false,
    render: ({ interrupt, resolve }) => <ApprovalCard interrupt={interrupt} resolve={resolve} />,
  });

  const send = (event: FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    if (!text) return;
    setDraft("");
    agent.addMessage({ id: crypto.randomUUID(), role: "user", content: text });
    void copilotkit.runAgent({ agent });
  };

  const answers = outbox.entries.filter((entry) => entry.threadId === agent.threadId);
  // The card's own sentences (@agui-outbox/react): a delivered rejection never reads "Applied".
  const context = { serverKind: connection.serverKind, online: connection.online };
  // The event's key names the answer that settled the question, which may be another
  // tab's: only an applied answer's own entry says what this verdict did.
  const appliedEntry =
    verdict?.verdict === "applied"
      ? outbox.entries.find((entry) => entry.key === verdict.key && entry.state === "applied")
      : undefined;
  return (
    <main>
      <header>
        <h1>CopilotKit on DurableHttpAgent</h1>
        <span data-testid="link" data-online={String(connection.online)}>
          {connection.online ? "online" : "offline"} · {connection.link.name}
          {outbox.durable ? " · saved in IndexedDB" : ""}
        </span>
      </header>
      <ol aria-label="Conversation" data-testid="conversation">
        {agent.messages.map((message) => (
          <li key={message.id} data-testid="message" data-role={message.role}>
            {message.role === "user" ? "You: " : ""}
            {typeof message.content === "string" ? message.content : ""}
            {message.role === "assistant"
              ? message.toolCalls?.map((call) => (
                  <code key={call.id}>
                    {" "}
                    {call.function.name}({call.function.arguments})
                  </code>
                ))
              : null}
          </li>
        ))}
      </ol>
      <section aria-live="polite">{card}</section>
      {verdict ? (
        <p data-testid="verdict" data-verdict={verdict.verdict}>
          {appliedEntry
            ? describeVerdict(appliedEntry, context).sentence
            : `${VERDICT[verdict.verdict]}${verdict.detail ? `: ${verdict.detail}` : "."}`}
        </p>
      ) : null}
      {runError ? <p role="alert">{runError}</p> : null}
      <ul aria-label="Answers" data-testid="answers">
        {answers.map((entry) => (
          <li key={entry.key} data-testid="answer-status" data-state={entry.state}>
            {`${describeDecision(entry.decision)} ${describeVerdict(entry, context).sentence}`}
            {entry.attempts > 1 ? ` (${entry.attempts} attempts)` : ""}
            {entry.state === "stalled" || entry.state === "retry_wait" ? (
              <button type="button" onClick={() => void durable.client.retryNow(entry.key)}>
                Retry now
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <form onSubmit={send}>
        <input
          aria-label="Message"
          data-testid="chat-input"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          placeholder="Try: please deploy to prod"
        />
        <button type="submit" disabled={agent.isRunning}>
          Send
        </button>
      </form>
    </main>
  );
}
