import { createOutboxClient, type OutboxClient } from "@agui-outbox/core";
import {
  ApprovalList,
  type ApprovalRendererProps,
  describeVerdict,
  OutboxProvider,
  useApproval,
  useConnection,
  useEntryEvents,
  useOutbox,
  useThread,
} from "@agui-outbox/react";
import "@agui-outbox/react/styles.css";

// One client per signed-in user: answers are kept under the user's namespace.
export function createClient(userId: string): OutboxClient {
  return createOutboxClient({ url: "/agent", namespace: userId });
}

export function App(props: { client: OutboxClient }) {
  return (
    <OutboxProvider client={props.client} renderers={{ deploy_change: DeployCard }}>
      <Chat threadId="thread-1" />
      <Tray />
    </OutboxProvider>
  );
}

function Chat({ threadId }: { threadId: string }) {
  const thread = useThread(threadId); // hydrates on mount: a reload gets messages and open questions back
  const connection = useConnection();
  useEntryEvents((event) => {
    if (event.type === "verdict") console.info(`${event.entry.interruptId}: ${event.entry.state}`);
  });
  return (
    <section>
      <p>{connection.link.name}</p>
      {thread.messages.map((m) => (
        <p key={m.id}>{typeof m.content === "string" ? m.content : ""}</p>
      ))}
      {/* deploy_change gets DeployCard; any other tool the default card */}
      <ApprovalList threadId={threadId} />
      <button type="button" onClick={() => void thread.send("please deploy to prod")}>
        Ask
      </button>
    </section>
  );
}

function DeployCard({ threadId, interruptId }: ApprovalRendererProps) {
  const approval = useApproval(threadId, interruptId);
  if (approval.entry)
    return <p role="status">{describeVerdict(approval.entry, { serverKind: "contract" }).sentence}</p>;
  return (
    <div>
      <p>{approval.question}</p>
      <button type="button" onClick={() => void approval.answer({ approved: true })}>
        Deploy
      </button>
      <button type="button" onClick={() => void approval.answer({ approved: false, reason: "Not today" })}>
        Not now
      </button>
    </div>
  );
}

function Tray() {
  const { entries } = useOutbox();
  return (
    <ul>
      {entries.map((e) => (
        <li key={e.key}>
          {e.state} ({e.attempts} attempts)
        </li>
      ))}
    </ul>
  );
}
