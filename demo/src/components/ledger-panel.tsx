import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { readLedger } from "../mock-controls";

/** Rows shown before "Show all": the panel stays short, so the chaos panel stays on screen. */
export const LEDGER_LATEST = 5;

/** How many times each tool really ran on the server (the mock's side-effect ledger). */
export function LedgerPanel(): ReactNode {
  const ledger = useQuery({ queryKey: ["demo", "ledger"], queryFn: readLedger, refetchInterval: 1000 });
  const executions = ledger.data ?? [];
  const byCall = new Map<string, { name: string; threadId: string; args: string; count: number }>();
  for (const execution of executions) {
    const row = byCall.get(execution.toolCallId);
    if (row) row.count += 1;
    else
      byCall.set(execution.toolCallId, {
        name: execution.name,
        threadId: execution.threadId,
        args: JSON.stringify(execution.args),
        count: 1,
      });
  }
  const [showAll, setShowAll] = useState(false);
  // Newest first: the latest executions are what a person just caused.
  const rows = [...byCall].reverse();
  const shown = showAll ? rows : rows.slice(0, LEDGER_LATEST);
  return (
    <section className="panel" aria-labelledby="ledger-title" data-testid="ledger-panel">
      <h2 id="ledger-title">Ledger</h2>
      <p data-testid="ledger-total" data-count={executions.length}>
        Tool executions on the server: {ledger.isError ? "unavailable" : executions.length}
      </p>
      {byCall.size > 0 ? (
        <p className="muted" data-testid="ledger-shown">
          {shown.length < rows.length
            ? `The latest ${shown.length} of ${rows.length} tool calls.`
            : `${rows.length} tool call${rows.length === 1 ? "" : "s"}.`}
        </p>
      ) : null}
      {byCall.size > 0 ? (
        // A scrollable region must be reachable by keyboard (axe: scrollable-region-focusable).
        // biome-ignore lint/a11y/noNoninteractiveTabindex: see above.
        <section className="table-scroll" tabIndex={0} aria-label="Ledger rows">
          <table className="tray">
            <thead>
              <tr>
                <th scope="col">Tool call</th>
                <th scope="col">Thread</th>
                <th scope="col">Arguments</th>
                <th scope="col">Ran</th>
              </tr>
            </thead>
            <tbody>
              {shown.map(([toolCallId, row]) => (
                <tr
                  key={toolCallId}
                  data-testid="ledger-row"
                  data-tool-call-id={toolCallId}
                  data-count={row.count}
                >
                  <td>
                    <code>{row.name}</code> <span className="muted">{toolCallId}</span>
                  </td>
                  <td>{row.threadId}</td>
                  <td>
                    <code>{row.args}</code>
                  </td>
                  <td className={row.count > 1 ? "danger" : undefined}>
                    {row.count === 1 ? "once" : `${row.count} times`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      {rows.length > LEDGER_LATEST ? (
        <button
          type="button"
          className="agui-button ledger__more"
          aria-expanded={showAll}
          onClick={() => setShowAll((value) => !value)}
          data-testid="ledger-toggle"
        >
          {showAll ? `Show the latest ${LEDGER_LATEST}` : `Show all ${rows.length}`}
        </button>
      ) : null}
    </section>
  );
}
