/** Which rules apply: the recovery contract, or the degraded rules for servers without it. */
export const ServerKind = {
  /** `AgentCapabilities.custom["x-recovery"]` is present. */
  contract: "contract",
  /** No `x-recovery` capability (today's Agent Framework). */
  degraded: "degraded",
} as const;
export type ServerKind = (typeof ServerKind)[keyof typeof ServerKind];
