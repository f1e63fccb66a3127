/** What went wrong, as data: a caller branches on `kind`, never on the message. */
export const GatewayErrorKind = {
  /** The gateway's own options or command line are unusable. */
  invalidOptions: "invalid_options",
  /** The upstream could not be reached (refused, reset, DNS) before it answered. */
  upstreamUnreachable: "upstream_unreachable",
  /** The upstream answered a run with an HTTP error status. */
  upstreamStatus: "upstream_status",
  /** The upstream's answer is not an AG-UI event stream. */
  upstreamProtocol: "upstream_protocol",
  /** This attempt no longer holds its claim (its lease lapsed, or the run was stopped). */
  claimLost: "claim_lost",
} as const;
export type GatewayErrorKind = (typeof GatewayErrorKind)[keyof typeof GatewayErrorKind];

export class GatewayError extends Error {
  readonly kind: GatewayErrorKind;
  /** The upstream's HTTP status, for `upstream_status`. */
  readonly status: number | undefined;

  constructor(kind: GatewayErrorKind, message: string, options: { cause?: unknown; status?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "GatewayError";
    this.kind = kind;
    this.status = options.status;
  }
}
