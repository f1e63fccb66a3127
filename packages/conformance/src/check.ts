import type { CheckTarget } from "./check-wire";

/** One rule of the recovery contract, checked against a server over HTTP. */
export interface CheckResult {
  readonly pass: boolean;
  /** What the server did, in a few words. */
  readonly observed: string;
  /** The target lacks a hook the check needs: neither passed nor failed. */
  readonly skipped?: true;
}

export interface ContractCheck {
  readonly id: string;
  /** What DESIGN.md asks of the server. */
  readonly rule: string;
  /**
   * `false` for a row that describes the server rather than a rule a contract server
   * must keep; the CLI's verdict leaves it out.
   * @default true
   */
  readonly contract?: false;
  readonly run: (target: CheckTarget) => Promise<CheckResult>;
}
