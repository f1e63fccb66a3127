/** The instance died or was reset under a running step: stop without writing anything. */
export class ServerGone extends Error {
  constructor() {
    super("the mock server instance is gone");
    this.name = "ServerGone";
  }
}
