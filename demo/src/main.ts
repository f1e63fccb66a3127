import { AgentCapabilitiesSchema, MetadataKey, RecoveryCapabilitySchema } from "@agui-outbox/core/protocol";

// Until the React demo lands, the page proves the wiring: the app reaches the mock
// server through the dev proxy and reads its recovery capability.
async function showServerStatus(target: HTMLElement): Promise<void> {
  try {
    const response = await fetch("/agent/capabilities");
    const capabilities = AgentCapabilitiesSchema.parse(await response.json());
    const recovery = RecoveryCapabilitySchema.safeParse(capabilities.custom?.[MetadataKey.recovery]);
    target.textContent = recovery.success
      ? `Mock server connected: recovery contract v${recovery.data.version}.`
      : "Mock server connected: no recovery contract (degraded mode).";
  } catch {
    target.textContent = "Mock server unreachable. Start it with `npm run demo`.";
  }
}

const status = document.getElementById("server-status");
if (status) void showServerStatus(status);
