import type { BackgroundRunsPlugin } from "@agui-outbox/background";
import type { Message } from "@agui-outbox/core/protocol";
import {
  ApprovalList,
  useBackgroundRuns,
  useCapabilities,
  useConnection,
  useThread,
} from "@agui-outbox/react";
import { type FormEvent, type ReactNode, useId, useState } from "react";

function toolCallsOf(message: Message): string[] {
  if (message.role !== "assistant" || !message.toolCalls) return [];
  return message.toolCalls.map((call) => `${call.function.name}(${call.function.arguments})`);
}

function MessageItem(props: { message: Message }): ReactNode {
  const { message } = props;
  const text = typeof message.content === "string" ? message.content : "";
  const who = message.role === "user" ? "You" : message.role === "tool" ? "Tool" : "Agent";
  return (
    <li className={`message message--${message.role}`} data-testid="message" data-role={message.role}>
      <span className="message__who">{who}</span>
      {text ? <span className="message__text">{text}</span> : null}
      {toolCallsOf(message).map((call) => (
        <code key={call} className="message__call">
          {call}
        </code>
      ))}
    </li>
  );
}

/** The server's own words and code, for whoever debugs: folded away, never the sentence a person reads. */
function ErrorDetails(props: { testId: string; text: string }): ReactNode {
  return (
    <details className="error-details" data-testid={props.testId}>
      <summary>Details</summary>
      <code>{props.text}</code>
    </details>
  );
}

function failureText(run: { code: string | null; message: string }): string {
  return run.code ? `${run.code}: ${run.message}` : run.message;
}

/** The conversation, its open questions, and the box to write in. */
export function ChatThread(props: { threadId: string; background: BackgroundRunsPlugin }): ReactNode {
  const thread = useThread(props.threadId);
  const background = useBackgroundRuns(props.background);
  // A server without the contract's background routes cannot serve a background run: say so up front.
  const capabilities = useCapabilities();
  const backgroundSupported = capabilities.data?.recovery?.background !== undefined;
  // Only a server that answered can say it has no background routes; a read that failed says nothing.
  const { online } = useConnection();
  const backgroundReason = !online
    ? "You are offline: a background run needs the server."
    : capabilities.isError
      ? "The server could not be reached to ask whether it supports background runs."
      : capabilities.isPending
        ? "Reading what the server supports…"
        : "This server does not support background runs.";
  const backgroundHintId = useId();
  const waitingHintId = useId();
  const [draft, setDraft] = useState("please deploy to prod");
  const [sendError, setSendError] = useState<string | null>(null);
  const inputId = useId();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = draft.trim();
    // A run that asked is resumed by its answers: a message now is refused by the server.
    if (!text || waiting) return;
    setSendError(null);
    // Sent is sent: a second Enter in a full composer would ask the agent again.
    setDraft("");
    // The second button sends the message as a background run, polled with a
    // continuation token that survives reloads.
    const asBackground = (event.nativeEvent as SubmitEvent).submitter?.dataset.mode === "background";
    const sent = asBackground ? background.start(props.threadId, text) : thread.send(text);
    sent.catch((error: unknown) => setSendError(error instanceof Error ? error.message : String(error)));
  };

  // A hydration is a run too, but only a read: a message sent meanwhile waits for it
  // (thread.send), so Send stays enabled and a click during a load is not lost.
  const running = thread.run.name === "running" && !thread.hydrating;
  const waiting = thread.pendingInterrupts.length > 0;
  const hint = waiting ? waitingHintId : backgroundSupported ? undefined : backgroundHintId;
  return (
    <section className="panel chat" aria-labelledby="chat-title">
      <h2 id="chat-title">
        Conversation <small className="muted">({props.threadId})</small>
      </h2>
      {thread.hydrating && thread.messages.length === 0 ? (
        <p className="muted">Loading the conversation…</p>
      ) : null}
      {thread.hydrationError && !thread.hydrating ? (
        <div className="error-box" role="alert" data-testid="hydration-error">
          <p>
            {online
              ? "The conversation could not be loaded."
              : "The conversation could not be loaded: you are offline. It loads again when you are back."}
          </p>
          <ErrorDetails testId="hydration-error-detail" text={thread.hydrationError.message} />
          <button type="button" className="agui-button" onClick={() => void thread.rehydrate()}>
            Try again
          </button>
        </div>
      ) : null}
      <ol className="messages" aria-label="Conversation">
        {thread.messages.map((message) => (
          <MessageItem key={message.id} message={message} />
        ))}
      </ol>
      <p className="run-state" data-testid="run-state" data-run={thread.run.name}>
        {running ? "The agent is working…" : null}
        {thread.run.name === "failed" ? "The agent's run failed." : null}
      </p>
      {thread.run.name === "failed" ? (
        <ErrorDetails testId="run-error-detail" text={failureText(thread.run)} />
      ) : null}
      <div className="approvals">
        <ApprovalList threadId={props.threadId} />
      </div>
      <form className="composer" onSubmit={onSubmit}>
        <label htmlFor={inputId}>Your message</label>
        <input
          id={inputId}
          className="agui-input"
          type="text"
          value={draft}
          autoComplete="off"
          onChange={(event) => setDraft(event.currentTarget.value)}
          data-testid="composer-input"
        />
        <div className="composer__buttons">
          <button
            type="submit"
            className="agui-button agui-button--primary"
            disabled={running || waiting}
            aria-describedby={waiting ? waitingHintId : undefined}
          >
            Send
          </button>
          <button
            type="submit"
            className="agui-button"
            data-mode="background"
            data-testid="send-background"
            disabled={running || waiting || !backgroundSupported}
            aria-describedby={hint}
          >
            Run in background
          </button>
        </div>
        {waiting ? (
          <p id={waitingHintId} className="muted composer__hint" data-testid="composer-waiting">
            The agent is waiting for your answer to the question above. Answer it or cancel it, then send your
            message.
          </p>
        ) : null}
        {backgroundSupported ? null : (
          <p id={backgroundHintId} className="muted composer__hint" data-testid="background-unsupported">
            {backgroundReason}
          </p>
        )}
      </form>
      {sendError ? (
        <div role="alert">
          <p className="error">Your message was not sent.</p>
          <ErrorDetails testId="send-error-detail" text={sendError} />
        </div>
      ) : null}
    </section>
  );
}
