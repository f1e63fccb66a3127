/** 404, 405, 501: the route does not exist here. Not 410: the contract uses it for an expired run log. */
export function isAbsentRoute(status: number | undefined): boolean {
  return status === 404 || status === 405 || status === 501;
}
