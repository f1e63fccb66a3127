import type { LinkState } from "@agui-outbox/core";
import { useCapabilities, useConnection } from "@agui-outbox/react";
import type { ReactNode } from "react";

function describeLink(link: LinkState): string {
  switch (link.name) {
    case "starting":
      return "Starting…";
    case "connected":
      return link.serverKind === "contract"
        ? "Connected"
        : "Connected (server without the recovery contract)";
    case "offline":
      return "Offline: answers are kept and sent when you are back";
    case "unreachable":
      return `Agent unreachable: ${link.reason}`;
    case "detecting":
      return `Checking which server this is: ${link.reason}`;
    case "paused":
      return "Signed out: sign in again to send";
    case "stopped":
      return "Stopped";
  }
}

/** The link to the agent, the rules in force, and the contract version. */
export function ConnectionIndicator(): ReactNode {
  const connection = useConnection();
  const capabilities = useCapabilities();
  const recovery = capabilities.data?.recovery;
  const contract = capabilities.isSuccess
    ? recovery
      ? `recovery contract v${recovery.version}`
      : "no recovery contract (degraded mode)"
    : capabilities.isError
      ? "capabilities unavailable"
      : "reading capabilities…";
  return (
    <p
      className={`connection connection--${connection.link.name}`}
      role="status"
      data-testid="connection"
      data-link={connection.link.name}
      data-server-kind={connection.serverKind}
      data-leader={connection.leader ? "true" : "false"}
      data-online={connection.online ? "true" : "false"}
    >
      <span className="connection__dot" aria-hidden="true" />
      {describeLink(connection.link)} · {contract}
      {connection.leader ? " · this tab sends" : " · another tab sends"}
    </p>
  );
}
