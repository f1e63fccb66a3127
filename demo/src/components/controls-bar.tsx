import { type ReactNode, useId, useSyncExternalStore } from "react";
import { DEMO_USERS } from "../demo-user";
import type { OfflineSwitch } from "../offline-switch";

export interface ControlsBarProps {
  readonly offline: OfflineSwitch;
  readonly user: string;
  readonly onUserChange: (user: string) => void;
  readonly onNewThread: () => void;
}

/** The offline toggle, the signed-in user, and a new conversation. */
export function ControlsBar(props: ControlsBarProps): ReactNode {
  const { offline } = props;
  const isOffline = useSyncExternalStore(
    (listener) => offline.subscribe(listener),
    () => offline.offline,
  );
  const userId = useId();
  const offlineId = useId();
  return (
    <div className="controls">
      <label htmlFor={offlineId} className="agui-check">
        <input
          id={offlineId}
          type="checkbox"
          checked={isOffline}
          onChange={(event) => offline.setOffline(event.currentTarget.checked)}
          data-testid="offline-toggle"
        />
        Offline
      </label>
      <div className="field-row">
        <label htmlFor={userId}>User</label>
        <select
          className="agui-input"
          id={userId}
          value={props.user}
          onChange={(event) => props.onUserChange(event.currentTarget.value)}
          data-testid="user-switch"
        >
          {DEMO_USERS.map((user) => (
            <option key={user} value={user}>
              {user}
            </option>
          ))}
        </select>
      </div>
      <button type="button" className="agui-button" onClick={props.onNewThread}>
        New conversation
      </button>
    </div>
  );
}
