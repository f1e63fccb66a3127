import { type BackgroundRunsPlugin, isFinalBackgroundVerdict } from "@agui-outbox/background";
import { useBackgroundRuns } from "@agui-outbox/react";
import type { ReactNode } from "react";

/** A run that asked a question goes on once its card is answered. */
const WAITING = "waiting for your answer to its question.";

/** Background runs and what became of them; a reload picks them up where they were. */
export function BackgroundRunsPanel(props: { background: BackgroundRunsPlugin }): ReactNode {
  const { runs, retryNow, discard } = useBackgroundRuns(props.background);
  return (
    <section className="panel" aria-labelledby="background-title">
      <h2 id="background-title">Background runs</h2>
      {runs.length === 0 ? <p className="muted">None yet.</p> : null}
      <ul className="background-runs" aria-live="polite">
        {runs.map((run) => (
          <li
            key={run.runId}
            data-testid="background-run"
            data-verdict={run.verdict}
            data-status={run.status}
            data-run-id={run.runId}
          >
            <span className="badge">{run.verdict}</span> {run.threadId}:{" "}
            {run.verdictReason ?? (run.status === "interrupted" ? WAITING : run.status)}
            {run.verdict === "retry_wait" || run.verdict === "needs_user" ? (
              <button type="button" className="agui-button" onClick={() => void retryNow(run.runId)}>
                Poll now
              </button>
            ) : null}
            {isFinalBackgroundVerdict(run.verdict) ? (
              <button type="button" className="agui-button" onClick={() => void discard(run.runId)}>
                Discard
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
