import type { Message } from "@agui-outbox/core/protocol";
import { ApprovalList, useBackgroundRuns, useCapabilities, useThread } from "@agui-outbox/react";
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

/** The conversation, its open questions, and the box to write in. */
export function ChatThread(props: { threadId: string }): ReactNode {
  const thread = useThread(props.threadId);
  const background = useBackgroundRuns();
  // A server without the contract's background routes cannot serve a background run: say so up front.
  const capabilities = useCapabilities();
  const backgroundSupported = capabilities.data?.recovery?.background !== undefined;
  const backgroundReason = capabilities.isPending
    ? "Reading what the server supports…"
    : "This server does not support background runs.";
  const backgroundHintId = useId();
  const [draft, setDraft] = useState("please deploy to prod");
  const [sendError, setSendError] = useState<string | null>(null);
  const inputId = useId();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = draft.trim();
    if (!text) return;
    setSendError(null);
    // Sent is sent: a second Enter in a full composer would ask the agent again.
    setDraft("");
    // The second button sends the message as a background run, polled with a
    // continuation token that survives reloads.
    const asBackground = (event.nativeEvent as SubmitEvent).submitter?.dataset.mode === "background";
    const sent = asBackground ? background.start(props.threadId, text) : thread.send(text);
    sent.catch((error: unknown) => setSendError(error instanceof Error ? error.message : String(error)));
  };

  const running = thread.run.name === "running";
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
          <p>The conversation could not be loaded: {thread.hydrationError.message}</p>
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
        {thread.run.name === "failed" ? `The run failed: ${thread.run.message}` : null}
      </p>
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
          <button type="submit" className="agui-button agui-button--primary" disabled={running}>
            Send
          </button>
          <button
            type="submit"
            className="agui-button"
            data-mode="background"
            data-testid="send-background"
            disabled={running || !backgroundSupported}
            aria-describedby={backgroundSupported ? undefined : backgroundHintId}
          >
            Run in background
          </button>
        </div>
        {backgroundSupported ? null : (
          <p id={backgroundHintId} className="muted composer__hint" data-testid="background-unsupported">
            {backgroundReason}
          </p>
        )}
      </form>
      {sendError ? (
        <p className="error" role="alert">
          {sendError}
        </p>
      ) : null}
    </section>
  );
}
