import type { OutboxEntry } from "@agui-outbox/core";
import { type ReactNode, useId, useRef, useState, useSyncExternalStore } from "react";
import { DEMO_USERS } from "../demo-user";
import type { OfflineSwitch } from "../offline-switch";
import { SignOutConfirm } from "./sign-out-confirm";

export interface ControlsBarProps {
  readonly offline: OfflineSwitch;
  /** The signed-in user; null when signed out. */
  readonly user: string | null;
  readonly onUserChange: (user: string | null) => void;
  /** Signs out, keeping the user's unsent answers or wiping the outbox; absent while the client is starting. */
  readonly onSignOut: ((keep: boolean) => Promise<void>) | undefined;
  /** The signed-in user's answers not yet delivered: signing out asks about them first. */
  readonly unsent: readonly OutboxEntry[];
  readonly onNewThread: () => void;
}

/** The offline toggle, the signed-in user (sign in, switch, sign out), and a new conversation. */
export function ControlsBar(props: ControlsBarProps): ReactNode {
  const { offline } = props;
  const isOffline = useSyncExternalStore(
    (listener) => offline.subscribe(listener),
    () => offline.offline,
  );
  const userId = useId();
  const offlineId = useId();
  const signedIn = props.user !== null;
  // Signed out, the select only picks who signs in next.
  const [chosen, setChosen] = useState<string>(DEMO_USERS[0]);
  const [signingOut, setSigningOut] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const signOutButton = useRef<HTMLButtonElement>(null);
  // A wipe that failed leaves the person signed in, told why: their answers are still stored.
  const [signOutError, setSignOutError] = useState<string | null>(null);
  const signOut = async (keep: boolean) => {
    setSigningOut(true);
    setSignOutError(null);
    try {
      await props.onSignOut?.(keep);
      setConfirming(false);
    } catch (error) {
      setSignOutError(error instanceof Error ? error.message : String(error));
    } finally {
      setSigningOut(false);
    }
  };
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
          value={props.user ?? chosen}
          onChange={(event) =>
            signedIn ? props.onUserChange(event.currentTarget.value) : setChosen(event.currentTarget.value)
          }
          data-testid="user-switch"
        >
          {DEMO_USERS.map((user) => (
            <option key={user} value={user}>
              {user}
            </option>
          ))}
        </select>
      </div>
      {signedIn ? (
        <button
          type="button"
          className="agui-button"
          ref={signOutButton}
          onClick={() => (props.unsent.length > 0 ? setConfirming(true) : void signOut(false))}
          disabled={signingOut || props.onSignOut === undefined}
          data-testid="sign-out"
        >
          {signingOut ? "Signing out…" : "Sign out"}
        </button>
      ) : (
        <button
          type="button"
          className="agui-button"
          onClick={() => props.onUserChange(chosen)}
          data-testid="sign-in"
        >
          Sign in
        </button>
      )}
      <button type="button" className="agui-button" onClick={props.onNewThread}>
        New conversation
      </button>
      {confirming && props.user !== null ? (
        <SignOutConfirm
          user={props.user}
          unsent={props.unsent}
          busy={signingOut}
          onKeep={() => void signOut(true)}
          onDiscard={() => void signOut(false)}
          onStay={() => {
            setConfirming(false);
            // The question goes away: focus returns to where the person started.
            signOutButton.current?.focus();
          }}
        />
      ) : null}
      {signOutError === null ? null : (
        <p className="error" role="alert" data-testid="sign-out-error">
          Not signed out: your stored answers could not be deleted ({signOutError}). Try again.
        </p>
      )}
    </div>
  );
}
