import { type Identify, idProblem, SCOPE_SEPARATOR } from "@agui-outbox/server";

/** The header the demo sends with its signed-in user's name (see demo/src/app.tsx). */
export const DEMO_USER_HEADER = "x-demo-user";
/** Requests without the header (tests, curl, other clients) share this identity. */
export const ANONYMOUS_USER = "anonymous";

/**
 * The mock's `identify`: it trusts the header, as a demo may and an app must
 * not (an app verifies a session, a token or a signed header its gateway sets).
 */
export const demoIdentify: Identify = (request) => {
  const user = request.headers[DEMO_USER_HEADER];
  if (typeof user !== "string" || user.length === 0) return ANONYMOUS_USER;
  return idProblem(user, "user") === undefined ? user : undefined;
};

/** The id as its identity wrote it: a stored id without its identity's scope. */
export function unscoped(storedId: string): string {
  return storedId.slice(storedId.indexOf(SCOPE_SEPARATOR) + 1);
}
