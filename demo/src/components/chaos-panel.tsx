import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useId, useState } from "react";
import {
  addFaults,
  type ChaosFault,
  pendingFaults,
  readMode,
  resetServer,
  switchMode,
} from "../mock-controls";

const MODES = ["fixed", "af-legacy", "af-lifecycle"] as const;
const DELAY_POINTS = [
  { point: "before-response", label: "before the server answers" },
  { point: "after-claim", label: "after the claim" },
  { point: "after-tool", label: "after the tool ran" },
] as const;

/** Buttons that queue the mock server's faults, so each recovery path can be seen. */
export function ChaosPanel(): ReactNode {
  const queryClient = useQueryClient();
  const faults = useQuery({ queryKey: ["demo", "chaos"], queryFn: pendingFaults, refetchInterval: 1000 });
  const mode = useQuery({ queryKey: ["demo", "mode"], queryFn: readMode });
  const [afterEvents, setAfterEvents] = useState("2");
  const [retryAfter, setRetryAfter] = useState("5");
  const [delaySeconds, setDelaySeconds] = useState("5");
  const [delayPoint, setDelayPoint] = useState<(typeof DELAY_POINTS)[number]["point"]>("after-tool");
  const [message, setMessage] = useState("");
  const dropId = useId();
  const retryId = useId();
  const modeId = useId();
  const delayId = useId();
  const delayPointId = useId();

  const run = async (label: string, action: () => Promise<void>) => {
    try {
      await action();
      setMessage(`${label}: done.`);
    } catch (error) {
      setMessage(`${label}: ${error instanceof Error ? error.message : String(error)}`);
    }
    await queryClient.invalidateQueries({ queryKey: ["demo"] });
  };
  const queue = (label: string, fault: ChaosFault) => run(label, () => addFaults([fault]));
  const retryAfterMs = Math.max(0, Number(retryAfter) || 0) * 1000;

  return (
    <section className="panel" aria-labelledby="chaos-title" data-testid="chaos-panel">
      <h2 id="chaos-title">Chaos</h2>
      <p className="muted">Each fault fires once, on the next request it applies to.</p>
      <div className="button-row">
        <button
          type="button"
          className="agui-button"
          data-testid="chaos-after-tool"
          onClick={() => void queue("Fail after the tool", { point: "after-tool", action: "fail" })}
        >
          Fail after the tool
        </button>
        <button
          type="button"
          className="agui-button"
          data-testid="chaos-crash"
          onClick={() => void queue("Crash after the tool", { point: "after-tool", action: "crash" })}
        >
          Crash and restart the server
        </button>
        <button
          type="button"
          className="agui-button"
          data-testid="chaos-indeterminate"
          onClick={() => void queue("Cut the tool off", { point: "mid-tool", action: "fail" })}
        >
          Cut the tool off mid-run
        </button>
      </div>
      <div className="field-row">
        <label htmlFor={dropId}>Drop the stream after N events</label>
        <input
          id={dropId}
          className="agui-input"
          type="number"
          min="1"
          value={afterEvents}
          onChange={(event) => setAfterEvents(event.currentTarget.value)}
        />
        <button
          type="button"
          className="agui-button"
          data-testid="chaos-drop"
          onClick={() =>
            void queue("Drop the stream", {
              point: "mid-stream",
              action: "drop",
              afterEvents: Math.max(1, Number(afterEvents) || 1),
            })
          }
        >
          Drop the stream
        </button>
      </div>
      <div className="field-row">
        <label htmlFor={retryId}>Retry-After (seconds)</label>
        <input
          id={retryId}
          className="agui-input"
          type="number"
          min="0"
          value={retryAfter}
          onChange={(event) => setRetryAfter(event.currentTarget.value)}
        />
        <button
          type="button"
          className="agui-button"
          data-testid="chaos-429"
          onClick={() =>
            void queue("Answer 429", {
              point: "before-response",
              action: "status",
              status: 429,
              retryAfterMs,
            })
          }
        >
          Answer 429
        </button>
        <button
          type="button"
          className="agui-button"
          data-testid="chaos-503"
          onClick={() =>
            void queue("Answer 503", {
              point: "before-response",
              action: "status",
              status: 503,
              retryAfterMs,
            })
          }
        >
          Answer 503
        </button>
      </div>
      <div className="field-row">
        <label htmlFor={delayId}>Pause (seconds)</label>
        <input
          id={delayId}
          className="agui-input"
          type="number"
          min="1"
          value={delaySeconds}
          onChange={(event) => setDelaySeconds(event.currentTarget.value)}
        />
        <label htmlFor={delayPointId}>at</label>
        <select
          className="agui-input"
          id={delayPointId}
          value={delayPoint}
          onChange={(event) => {
            const chosen = DELAY_POINTS.find((option) => option.point === event.currentTarget.value);
            if (chosen) setDelayPoint(chosen.point);
          }}
        >
          {DELAY_POINTS.map((option) => (
            <option key={option.point} value={option.point}>
              {option.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="agui-button"
          data-testid="chaos-delay"
          onClick={() =>
            void queue("Pause the run", {
              point: delayPoint,
              action: "delay",
              delayMs: Math.max(1, Number(delaySeconds) || 1) * 1000,
            })
          }
        >
          Pause the run
        </button>
      </div>
      <div className="field-row">
        <label htmlFor={modeId}>Server mode</label>
        <select
          className="agui-input"
          id={modeId}
          value={mode.data ?? "fixed"}
          onChange={(event) => {
            const next = event.currentTarget.value;
            void run(`Switch to ${next}`, () => switchMode(next));
          }}
        >
          {MODES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="agui-button"
          data-testid="chaos-reset"
          onClick={() => void run("Reset the server", resetServer)}
        >
          Reset the server
        </button>
      </div>
      <p className="muted" data-testid="chaos-pending">
        Pending faults:{" "}
        {faults.data
          ? faults.data.map((fault) => `${fault.point}/${fault.action}`).join(", ") || "none"
          : "…"}
      </p>
      <p className="muted" aria-live="polite" data-testid="chaos-message">
        {message}
      </p>
    </section>
  );
}
