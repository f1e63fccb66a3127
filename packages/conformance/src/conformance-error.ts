/** What went wrong, as data: a caller branches on `kind`, never on the message. */
export const ConformanceErrorKind = {
  /** The command line is unusable (unknown flag, missing or malformed URL). */
  invalidArgs: "invalid_args",
  /** The `--config` file cannot be read, is not JSON, or does not match the schema. */
  invalidConfig: "invalid_config",
  /** The ledger hook answered something other than `{ executions: [{ threadId }] }`. */
  badLedger: "bad_ledger",
  /** The fault hook refused the faults. */
  chaosRefused: "chaos_refused",
} as const;
export type ConformanceErrorKind = (typeof ConformanceErrorKind)[keyof typeof ConformanceErrorKind];

export class ConformanceError extends Error {
  readonly kind: ConformanceErrorKind;

  constructor(kind: ConformanceErrorKind, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ConformanceError";
    this.kind = kind;
  }
}
