import type { EntryError } from "@agui-outbox/core";

const two = (value: number) => String(value).padStart(2, "0");

/** A wall-clock time to the millisecond (local time): transitions are often milliseconds apart. */
export function clockTime(at: number): string {
  const date = new Date(at);
  const ms = String(date.getMilliseconds()).padStart(3, "0");
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${ms}`;
}

/** A failure in one line, code and status first: the inspector is for developers. */
export function errorText(error: EntryError | null): string {
  if (error === null) return "none";
  const status = error.status === undefined ? "" : ` ${error.status}`;
  const code = error.code === undefined ? "" : ` ${error.code}`;
  return `${error.kind}${status}${code}: ${error.message}`;
}
