/** The recovery contract's paths, relative to the agent's URL (`https://host/agent`). */
export const AgentRoute = {
  /** `POST`: run, resume or hydrate (AG-UI `RunAgentInput` in, SSE out). */
  run: "",
  /** `GET`: `AgentCapabilities` with `custom["x-recovery"]`. */
  capabilities: "/capabilities",
  /** `GET`: run status JSON. */
  runStatus: (runId: string) => `/runs/${encodeURIComponent(runId)}`,
  /** `GET`: re-attach to a run's event log after `Last-Event-ID` or `?after=`. */
  runEvents: (runId: string) => `/runs/${encodeURIComponent(runId)}/events`,
  /** `POST`: poll a background run with its continuation token. */
  backgroundPoll: "/background/poll",
} as const;
