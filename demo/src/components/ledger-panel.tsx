import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { readLedger } from "../mock-controls";

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
  return (
    <section className="panel" aria-labelledby="ledger-title" data-testid="ledger-panel">
      <h2 id="ledger-title">Ledger</h2>
      <p data-testid="ledger-total" data-count={executions.length}>
        Tool executions on the server: {ledger.isError ? "unavailable" : executions.length}
      </p>
      {byCall.size > 0 ? (
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
            {[...byCall].map(([toolCallId, row]) => (
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
      ) : null}
    </section>
  );
}
