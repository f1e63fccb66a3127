import {
  type AgentCapabilities,
  MetadataKey,
  RECOVERY_CONTRACT_VERSION,
  type RecoveryCapability,
} from "@agui-outbox/core/protocol";
import { DEPLOY_TOOL, DEPLOY_TOOL_DESCRIPTION, deployToolParameters } from "../agent/deploy-script";
import type { ResolvedOptions } from "../options";

/** Where background runs are polled, relative to the server root. */
export const BACKGROUND_POLL_PATH = "/agent/background/poll";

/** `GET /agent/capabilities` in `fixed` mode: AG-UI capabilities plus the recovery contract. */
export function fixedCapabilities(options: ResolvedOptions): AgentCapabilities {
  const recovery: RecoveryCapability = {
    version: RECOVERY_CONTRACT_VERSION,
    idempotencyWindowMs: options.idempotencyWindowMs,
    eventLogRetentionMs: options.eventLogRetentionMs,
    claimLeaseMs: options.claimLeaseMs,
    keepaliveMs: options.keepaliveMs,
    background: { pollPath: BACKGROUND_POLL_PATH },
  };
  return {
    identity: { name: "agui-outbox mock agent", type: "mock", version: "0.1.0" },
    transport: { streaming: true, resumable: true },
    tools: {
      supported: true,
      items: [{ name: DEPLOY_TOOL, description: DEPLOY_TOOL_DESCRIPTION, parameters: deployToolParameters }],
    },
    humanInTheLoop: { supported: true, approvals: true, interrupts: true, approveWithEdits: true },
    custom: { [MetadataKey.recovery]: recovery },
  };
}
