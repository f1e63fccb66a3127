import type { OutboxEntry } from "./entry";
import type { CommitResult } from "./outbox-store";

/** The entries after a start read's write: the committed entry, or what is stored instead. */
export function afterStartCommit(
  entries: readonly OutboxEntry[],
  key: string,
  commit: CommitResult,
): OutboxEntry[] {
  const now = commit.committed ? commit.entry : commit.current;
  const others = entries.filter((entry) => entry.key !== key);
  if (now === undefined || !entries.some((entry) => entry.key === key)) return others;
  return entries.map((entry) => (entry.key === key ? now : entry));
}
