/**
 * The mock server's test controls, reached same-origin through the proxy.
 * Not part of the SDK: they exist so the demo can show each failure on demand.
 */
export interface ChaosFault {
  readonly point:
    | "before-response"
    | "before-claim"
    | "after-claim"
    | "mid-tool"
    | "after-tool"
    | "mid-stream";
  readonly action: "status" | "crash" | "fail" | "drop" | "delay";
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly afterEvents?: number;
  readonly delayMs?: number;
  readonly times?: number;
  readonly threadId?: string;
}

export interface LedgerExecution {
  readonly threadId: string;
  readonly toolCallId: string;
  readonly name: string;
  readonly args: unknown;
  readonly at: string | number;
}

async function post(path: string, body: unknown): Promise<unknown> {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered HTTP ${response.status}.`);
  return response.json();
}

export async function addFaults(faults: readonly ChaosFault[]): Promise<void> {
  await post("/__chaos", { faults });
}

export async function pendingFaults(): Promise<ChaosFault[]> {
  const response = await fetch("/__chaos");
  if (!response.ok) throw new Error(`/__chaos answered HTTP ${response.status}.`);
  return ((await response.json()) as { faults: ChaosFault[] }).faults;
}

export async function readLedger(): Promise<LedgerExecution[]> {
  const response = await fetch("/__ledger");
  if (!response.ok) throw new Error(`/__ledger answered HTTP ${response.status}.`);
  return ((await response.json()) as { executions: LedgerExecution[] }).executions;
}

export async function readMode(): Promise<string> {
  const response = await fetch("/__mode");
  if (!response.ok) throw new Error(`/__mode answered HTTP ${response.status}.`);
  return ((await response.json()) as { mode: string }).mode;
}

export async function switchMode(mode: string): Promise<void> {
  await post("/__mode", { mode });
}

export async function resetServer(): Promise<void> {
  const response = await fetch("/__reset", { method: "POST" });
  if (!response.ok) throw new Error(`/__reset answered HTTP ${response.status}.`);
}
