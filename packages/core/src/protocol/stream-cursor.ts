/**
 * SSE frame ids of the form `<runId>:<seq>`: seq is 1-based and gap-free per run.
 * The runId may itself contain colons, so the sequence is taken after the last one.
 */
export interface StreamCursor {
  readonly runId: string;
  readonly seq: number;
}

export function formatEventId(cursor: StreamCursor): string {
  return `${cursor.runId}:${cursor.seq}`;
}

export function parseEventId(id: string): StreamCursor | undefined {
  const colon = id.lastIndexOf(":");
  if (colon <= 0) return undefined;
  const seqText = id.slice(colon + 1);
  if (!/^[1-9][0-9]*$/.test(seqText)) return undefined;
  const seq = Number(seqText);
  if (!Number.isSafeInteger(seq)) return undefined;
  return { runId: id.slice(0, colon), seq };
}
