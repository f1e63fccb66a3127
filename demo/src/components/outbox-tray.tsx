import { isFinalState, type OutboxEntry } from "@agui-outbox/core";
import {
  describeDecision,
  describeVerdict,
  useConnection,
  useOutbox,
  useOutboxClient,
  useRetryCountdown,
} from "@agui-outbox/react";
import type { ReactNode } from "react";
import { stateLabel } from "../state-label";

function TrayRow(props: { entry: OutboxEntry }): ReactNode {
  const { entry } = props;
  const client = useOutboxClient();
  const connection = useConnection();
  const seconds = useRetryCountdown(entry.state === "retry_wait" ? entry.nextAttemptAt : null);
  const verdict = describeVerdict(entry, {
    secondsLeft: seconds,
    serverKind: connection.serverKind,
    online: connection.online,
  });
  return (
    <tr data-testid="outbox-entry" data-state={entry.state} data-interrupt-id={entry.interruptId}>
      <td>{entry.threadId}</td>
      <td>{describeDecision(entry.decision)}</td>
      <td>
        <span className={`badge badge--${verdict.tone}`} data-testid="outbox-state">
          {stateLabel(entry)}
        </span>
      </td>
      <td data-testid="outbox-attempts">{entry.attempts}</td>
      <td>{verdict.sentence}</td>
      <td>
        {entry.state === "retry_wait" ? (
          <button type="button" className="agui-button" onClick={() => void client.retryNow(entry.key)}>
            Retry now
          </button>
        ) : null}
        {isFinalState(entry.state) ? (
          <button type="button" className="agui-button" onClick={() => void client.discard(entry.key)}>
            Discard
          </button>
        ) : null}
      </td>
    </tr>
  );
}

/** Every answer of this user, with its delivery state, attempts and (in the status) retry countdown. */
export function OutboxTray(): ReactNode {
  const outbox = useOutbox();
  return (
    <section className="panel" aria-labelledby="outbox-title" data-testid="outbox-tray">
      <h2 id="outbox-title">Outbox</h2>
      <p className="muted" data-testid="outbox-durability">
        {!outbox.ready
          ? "Opening storage…"
          : outbox.durable
            ? "Answers are saved in IndexedDB and survive a reload."
            : `Answers live in memory only${outbox.storageError ? `: ${outbox.storageError.message}` : "."}`}
      </p>
      {outbox.entries.length === 0 ? (
        <p className="muted">No answers yet.</p>
      ) : (
        // A scrollable region must be reachable by keyboard (axe: scrollable-region-focusable).
        // biome-ignore lint/a11y/noNoninteractiveTabindex: see above.
        <section className="table-scroll" tabIndex={0} aria-label="Outbox entries">
          <table className="tray">
            <thead>
              <tr>
                <th scope="col">Thread</th>
                <th scope="col">Answer</th>
                <th scope="col">State</th>
                <th scope="col">Attempts</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {outbox.entries.map((entry) => (
                <TrayRow key={entry.key} entry={entry} />
              ))}
            </tbody>
          </table>
        </section>
      )}
    </section>
  );
}
