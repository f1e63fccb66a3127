/** A server-side failure after the claim: the run ends in `RUN_ERROR` and the claim rolls back. */
export class RunFailure extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = "RunFailure";
    this.code = code;
  }
}

/** The instance died or was reset under a running step: stop without writing anything. */
export class ServerGone extends Error {
  constructor() {
    super("the mock server instance is gone");
    this.name = "ServerGone";
  }
}
