import { OutcomeCode } from "@agui-outbox/core/protocol";

/** The error code and message an injected HTTP status is answered with. */
export function injectedStatusError(status: number): { readonly code: string; readonly message: string } {
  if (status === 429) return { code: OutcomeCode.RATE_LIMITED, message: "too many requests; retry later" };
  if (status === 401) return { code: "UNAUTHORIZED", message: "authentication required" };
  if (status === 403) return { code: "FORBIDDEN", message: "not allowed for this user" };
  if (status === 409) return { code: "CONFLICT", message: "conflict; retry later" };
  if (status >= 500)
    return { code: OutcomeCode.UNAVAILABLE, message: "the agent is unavailable; retry later" };
  return { code: OutcomeCode.INVALID_REQUEST, message: `request refused with ${status}` };
}
