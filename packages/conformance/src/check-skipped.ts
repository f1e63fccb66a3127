/**
 * Thrown by a check that needs a hook the target lacks (a ledger, a fault hook): the
 * result says so instead of guessing. The message is the table's cell.
 */
export class CheckSkipped extends Error {
  constructor(reason: string) {
    super(reason.startsWith("not observed") ? reason : `skipped: ${reason}`);
    this.name = "CheckSkipped";
  }
}
