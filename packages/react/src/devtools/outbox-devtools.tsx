import type { OutboxClient } from "@agui-outbox/core";
import { type ReactNode, useContext, useId, useState, useSyncExternalStore } from "react";
import { useStore } from "zustand";
import { OutboxContext } from "../outbox-context";
import { styles } from "./devtools-styles";
import { EntryInspector } from "./entry-inspector";
import { inspectorReport } from "./inspector-report";
import { timelinesOf } from "./timeline";

export interface OutboxDevtoolsProps {
  /** @default the nearest `OutboxProvider`'s client */
  readonly client?: OutboxClient;
  /**
   * Let "Copy as JSON" carry answer content (the decision's edits and reason, the
   * request body, the question, the namespace). See `inspectorReport`.
   * @default false
   */
  readonly includeAnswers?: boolean;
  /** @default false */
  readonly initialIsOpen?: boolean;
}

function useClient(given: OutboxClient | undefined): OutboxClient {
  const context = useContext(OutboxContext);
  const client = given ?? context?.client;
  if (client === undefined)
    throw new Error("<OutboxDevtools> needs a `client` prop or an enclosing <OutboxProvider>.");
  return client;
}

function tabRole(leader: boolean): string {
  return leader ? "sending (this tab holds the lock)" : "following (another tab sends)";
}

/**
 * The outbox inspector: every entry with its state, attempts, next try, last
 * error and rule, the timeline of its transitions, and the link to the server.
 * Import it from `@agui-outbox/react/devtools`, lazily, so an app's own bundle
 * never carries it. Transitions are recorded from its first render on.
 */
export function OutboxDevtools(props: OutboxDevtoolsProps): ReactNode {
  const client = useClient(props.client);
  const [open, setOpen] = useState(props.initialIsOpen ?? false);
  const [copied, setCopied] = useState("");
  const panelId = useId();
  const timelineStore = timelinesOf(client);
  const timelines = useSyncExternalStore(timelineStore.subscribe, timelineStore.getState);
  const outbox = useStore(client.outbox);
  const connection = useStore(client.connection);

  const copy = async () => {
    const report = inspectorReport(
      { url: client.url, namespace: client.namespace, outbox, connection, timelines },
      { now: Date.now(), includeAnswers: props.includeAnswers === true },
    );
    try {
      await navigator.clipboard.writeText(JSON.stringify(report, null, 2));
      setCopied(`Copied ${report.entries.length} ${report.entries.length === 1 ? "entry" : "entries"}.`);
    } catch {
      setCopied("The clipboard refused: allow it for this page and try again.");
    }
  };

  return (
    <div style={styles.root} data-testid="outbox-devtools">
      <button
        type="button"
        style={styles.button}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
        data-testid="inspector-toggle"
      >
        {open ? "Close the outbox inspector" : "Open the outbox inspector"}
      </button>
      {open ? (
        <section id={panelId} style={styles.panel} aria-labelledby={`${panelId}-title`}>
          <h2 id={`${panelId}-title`} style={styles.heading}>
            Outbox inspector
          </h2>
          <dl style={styles.facts} data-testid="inspector-connection">
            <dt style={styles.term}>Server kind</dt>
            <dd style={styles.value} data-testid="inspector-server-kind">
              {connection.serverKind}
              {connection.serverKindFrom ? ` (from ${connection.serverKindFrom})` : ""}
            </dd>
            <dt style={styles.term}>Link</dt>
            <dd style={styles.value} data-testid="inspector-link">
              {connection.link.name}
              {"reason" in connection.link ? `: ${connection.link.reason}` : ""}
            </dd>
            <dt style={styles.term}>This tab</dt>
            <dd style={styles.value} data-testid="inspector-tab">
              {tabRole(connection.leader)}
            </dd>
            <dt style={styles.term}>Online</dt>
            <dd style={styles.value}>{connection.online ? "yes" : "no"}</dd>
            <dt style={styles.term}>Storage</dt>
            <dd style={styles.value}>
              {outbox.durable ? "IndexedDB (durable)" : "memory"}
              {outbox.sealed.length > 0 ? `, ${outbox.sealed.length} sealed` : ""}
            </dd>
          </dl>
          <div style={styles.actions}>
            <button
              type="button"
              style={styles.button}
              onClick={() => void copy()}
              data-testid="inspector-copy"
            >
              Copy as JSON
            </button>
            <p role="status" style={styles.muted} data-testid="inspector-copied">
              {copied}
            </p>
          </div>
          {outbox.entries.length === 0 ? (
            <p style={styles.muted}>The outbox is empty.</p>
          ) : (
            outbox.entries.map((entry) => (
              <EntryInspector key={entry.key} entry={entry} timeline={timelines.get(entry.key) ?? []} />
            ))
          )}
        </section>
      ) : null}
    </div>
  );
}
