import type { OutboxEntry } from "@agui-outbox/core";
import { describeDecision } from "@agui-outbox/react";
import { type ReactNode, useEffect, useId, useRef } from "react";

export interface SignOutConfirmProps {
  readonly user: string;
  /** The answers not yet delivered, named in the question. */
  readonly unsent: readonly OutboxEntry[];
  readonly busy: boolean;
  readonly onKeep: () => void;
  readonly onDiscard: () => void;
  readonly onStay: () => void;
}

function questionOf(entry: OutboxEntry): string {
  return (
    entry.question?.message ?? (entry.question?.toolName ? `Run ${entry.question.toolName}?` : "A question")
  );
}

/**
 * Signing out with answers not yet delivered asks first: keep them for this user's
 * next sign-in in this browser, or discard them (the questions stay open at the server).
 */
export function SignOutConfirm(props: SignOutConfirmProps): ReactNode {
  const titleId = useId();
  const textId = useId();
  const keep = useRef<HTMLButtonElement>(null);
  // The question replaces the button that opened it: focus follows, to the safe choice.
  useEffect(() => keep.current?.focus(), []);
  const count = props.unsent.length;
  return (
    <section
      className="confirm"
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={textId}
      data-testid="sign-out-confirm"
    >
      <h2 id={titleId}>{count === 1 ? "1 answer is not sent yet" : `${count} answers are not sent yet`}</h2>
      <div id={textId}>
        <ul className="confirm__list">
          {props.unsent.map((entry) => (
            <li key={entry.key} data-testid="unsent-answer">
              “{questionOf(entry)}” — {describeDecision(entry.decision)}
            </li>
          ))}
        </ul>
        <p className="muted">
          Kept, they stay in this browser and are sent when {props.user} signs in here again. Discarded,
          nothing is sent and the questions stay open.
        </p>
      </div>
      <div className="button-row">
        <button
          ref={keep}
          type="button"
          className="agui-button agui-button--primary"
          disabled={props.busy}
          onClick={props.onKeep}
        >
          Keep them and sign out
        </button>
        <button
          type="button"
          className="agui-button agui-button--danger"
          disabled={props.busy}
          onClick={props.onDiscard}
        >
          Discard them and sign out
        </button>
        <button type="button" className="agui-button" disabled={props.busy} onClick={props.onStay}>
          Stay signed in
        </button>
      </div>
    </section>
  );
}
