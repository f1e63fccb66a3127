import { mockPort } from "./playwright.config";

/** Direct access to the mock server's test controls (ledger, chaos, reset) from a spec. */
export const mockUrl = `http://127.0.0.1:${mockPort}`;

export interface LedgerExecution {
  threadId: string;
  toolCallId: string;
  name: string;
  args: unknown;
  at: string | number;
}

export async function readLedger(): Promise<LedgerExecution[]> {
  const response = await fetch(`${mockUrl}/__ledger`);
  const body = (await response.json()) as { executions: LedgerExecution[] };
  return body.executions;
}

export async function resetMock(): Promise<void> {
  await fetch(`${mockUrl}/__reset`, { method: "POST" });
}
