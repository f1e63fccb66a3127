/**
 * Statuses that say a route does not exist on this server, as opposed to a
 * failure of one that does: 404 (no such path), 405 (the path takes another
 * method), 501 (not implemented). 410 is left out on purpose: the contract uses
 * it for a run log that existed and expired.
 */
export function isAbsentRoute(status: number | undefined): boolean {
  return status === 404 || status === 405 || status === 501;
}
