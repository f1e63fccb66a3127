import type { ConnectionState, OutboxEntry } from "@agui-outbox/core";
import { useCapabilities, useConnection, useOutbox } from "@agui-outbox/react";
import type { ReactNode } from "react";

/** Kinds of failure that mean the server itself is not answering. */
const UNREACHABLE = new Set(["network"]);

/**
 * An answer whose last attempt got no answer from the server, or an error status:
 * waiting for its retry, or already sending it again. Between two attempts the
 * entry is briefly queued or sending; until the server answers (the stream
 * starts) its last failure still stands, so the banner does not flip back to
 * "Connected" on every retry of a restarting server.
 */
function failingToReachServer(entry: OutboxEntry): boolean {
  if (entry.lastError === null) return false;
  return (
    entry.state === "retry_wait" ||
    (entry.everSent && (entry.state === "queued" || entry.state === "sending"))
  );
}

/**
 * The banner tells the truth about sending, not only about the capabilities read:
 * offline is offline whatever the last request said, and answers that cannot
 * reach the server outrank an earlier "Connected".
 */
function describeLink(connection: ConnectionState, entries: readonly OutboxEntry[]): string {
  const { link } = connection;
  if (!connection.online || link.name === "offline")
    return "Offline: answers are kept and sent when you are back";
  const waiting = entries.filter(failingToReachServer);
  if (link.name === "connected" && waiting.some((entry) => UNREACHABLE.has(entry.lastError?.kind ?? "")))
    return "Server unreachable: answers are kept and retried";
  if (link.name === "connected" && waiting.some((entry) => (entry.lastError?.status ?? 0) >= 500))
    return "Server unavailable: answers are kept and retried";
  switch (link.name) {
    case "starting":
      return "Starting…";
    case "connected":
      return connection.serverKind === "contract"
        ? "Connected"
        : "Connected (server without the recovery contract)";
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

/**
 * The link to the agent, the rules in force, and the contract version. The rules
 * come from `connection.serverKind` alone (the client's own reading of the
 * server); the capabilities query only adds the version number.
 */
export function ConnectionIndicator(): ReactNode {
  const connection = useConnection();
  const { entries } = useOutbox();
  const capabilities = useCapabilities();
  const version = capabilities.data?.recovery?.version;
  const known =
    connection.link.name === "connected" || (connection.link.name !== "starting" && capabilities.isSuccess);
  const contract = !known
    ? "reading capabilities…"
    : connection.serverKind === "contract"
      ? `recovery contract v${version ?? "?"}`
      : "no recovery contract (degraded mode)";
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
      {describeLink(connection, entries)} · {contract}
      {connection.leader ? " · this tab sends" : " · another tab sends"}
    </p>
  );
}
