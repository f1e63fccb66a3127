import { EntryState } from "@agui-outbox/core";
import { type ReactNode, useState } from "react";
import type { ApprovalCardModel } from "./approval-card";

/** Removes an answer with a final verdict from the outbox (the card returns to the question if it is still open). */
function DismissButton(props: { card: ApprovalCardModel; onDismiss: () => void }): ReactNode {
  return (
    <button
      type="button"
      className="agui-button"
      onClick={() => {
        props.onDismiss();
        void props.card.approval.discard();
      }}
      data-testid="dismiss"
    >
      Dismiss
    </button>
  );
}

/**
 * A lost answer, explained where it is shown: what may have happened, and what
 * each action does. Resending asks first, because the agent may run the tool
 * again; the entry stays on screen until the person dismisses it.
 */
function LostActions(props: CardActionsProps): ReactNode {
  const { approval } = props.card;
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="agui-card__lost" data-testid="lost-explanation">
      <ul className="agui-card__explain">
        <li>
          {approval.entry?.decision.kind === "approve"
            ? "What may have happened: the server received your answer and the tool may have run, but its result never reached this page."
            : "What may have happened: your answer may have reached the server, but what it did with it never reached this page."}
        </li>
        <li>
          <strong>Resend as a message</strong> posts your answer to the agent as a chat message. The agent may
          run the tool again.
        </li>
        <li>
          <strong>Dismiss</strong> removes this answer from this device. Nothing is sent.
        </li>
      </ul>
      {approval.resent ? (
        <p className="agui-card__detail" data-testid="resent">
          Your answer was sent as a message. Check the conversation, then dismiss this card.
        </p>
      ) : null}
      {confirming ? (
        <div className="agui-card__confirm">
          <p>This may cause the tool to run again. Send your answer as a message anyway?</p>
          <div className="agui-card__actions">
            <button
              type="button"
              className="agui-button agui-button--danger"
              data-testid="resend-confirm"
              onClick={() => {
                setConfirming(false);
                props.onDone();
                void approval.resendAsMessage();
              }}
            >
              Send the message
            </button>
            <button
              type="button"
              className="agui-button"
              data-testid="resend-back"
              onClick={() => {
                setConfirming(false);
                props.onDone();
              }}
            >
              Don't send
            </button>
          </div>
        </div>
      ) : (
        <div className="agui-card__actions">
          {approval.resent ? null : (
            <button
              type="button"
              className="agui-button"
              onClick={() => setConfirming(true)}
              data-testid="resend"
            >
              Resend as a message
            </button>
          )}
          <DismissButton card={props.card} onDismiss={props.onDismiss} />
        </div>
      )}
    </div>
  );
}

export interface CardActionsProps {
  readonly card: ApprovalCardModel;
  /** After an action whose button goes away: focus the status line. */
  readonly onDone: () => void;
  /** Just before Dismiss removes the answer: the card decides where focus goes next. */
  readonly onDismiss: () => void;
}

/** The actions the person has at each state after answering. */
export function CardActions(props: CardActionsProps): ReactNode {
  const { card } = props;
  switch (card.approval.state) {
    case EntryState.retryWait:
    case EntryState.stalled:
      // The countdown is in the status line: the button does not repeat it. A
      // stalled answer has nothing scheduled: this is how the person sends it again.
      return (
        <div className="agui-card__actions">
          <button
            type="button"
            className="agui-button"
            onClick={() => {
              props.onDone();
              void card.approval.retryNow();
            }}
            data-testid="retry-now"
          >
            Retry now
          </button>
        </div>
      );
    case EntryState.lost:
      return <LostActions {...props} />;
    case EntryState.applied:
    case EntryState.elsewhere:
    case EntryState.needsUser:
    case EntryState.expired:
      return (
        <div className="agui-card__actions">
          <DismissButton card={card} onDismiss={props.onDismiss} />
        </div>
      );
    default:
      return null;
  }
}
