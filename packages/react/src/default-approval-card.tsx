import { EntryState } from "@agui-outbox/core";
import { type FormEvent, type ReactNode, useEffect, useId, useRef } from "react";
import { useApprovalCard } from "./approval-card";
import { CardActions } from "./card-actions";
import { describeArgs, describeDecision } from "./describe-decision";
import { describeEntryError } from "./describe-error";
import { FieldEditor } from "./field-editor";
import { nextFocusable } from "./next-focusable";
import type { CountdownClock } from "./use-retry-countdown";

export interface DefaultApprovalCardProps {
  readonly threadId: string;
  readonly interruptId: string;
  /** Clock for the retry countdown (tests). */
  readonly clock?: CountdownClock;
  /** Extra class names on the card's root. */
  readonly className?: string;
}

/**
 * A ready-made approval card: the question, an argument editor generated from
 * `responseSchema` that validates as the person types, Approve / Reject /
 * Cancel buttons (only a button answers: Enter in a field does not), and a
 * polite live region announcing each status change.
 * After an answer, focus moves to that status line (the form it was in goes
 * away), so a keyboard or screen-reader user lands on what happened.
 * Style it with `@agui-outbox/react/styles.css` (class names `agui-*`).
 */
export function DefaultApprovalCard(props: DefaultApprovalCardProps): ReactNode {
  const card = useApprovalCard(props.threadId, props.interruptId, props.clock);
  const { approval, form, verdict } = card;
  const titleId = useId();
  const formErrorId = useId();
  const status = useRef<HTMLParagraphElement>(null);
  const unanswered = approval.state === "unanswered";
  const answering = card.canAnswer;
  const question =
    approval.question ?? (approval.proposed ? `Run ${approval.proposed.name}?` : "Approval needed");
  const locked = !answering || approval.submitting;
  const focusStatus = () => status.current?.focus();
  const root = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Dismiss removes the answer: the card shows the question again if it is still open
  // (focus its heading), or leaves the page (focus what followed it, not <body>).
  const afterDismiss = useRef<HTMLElement | null>(null);
  const onDismiss = () => {
    afterDismiss.current = nextFocusable(root.current);
  };
  const answered = approval.entry !== undefined;
  useEffect(() => {
    if (answered || afterDismiss.current === null) return;
    afterDismiss.current = null;
    heading.current?.focus();
  }, [answered]);
  useEffect(
    () => () => {
      if (afterDismiss.current?.isConnected) afterDismiss.current.focus();
    },
    [],
  );

  // Enter in a field submits a form implicitly: that must never answer, so only a
  // press of Approve does (an edit half-typed is not a decision to deploy it).
  const ignoreSubmit = (event: FormEvent<HTMLFormElement>) => event.preventDefault();
  const onApprove = () => {
    // Invalid: the errors show and focus stays on the button, next to them.
    if (form.valid) focusStatus();
    void card.approve();
  };
  const answerWith = (action: () => Promise<unknown>) => {
    focusStatus();
    void action();
  };

  return (
    // An article, not a landmark: a thread may hold several cards asking the same question.
    <article
      ref={root}
      className={["agui-card", `agui-card--${verdict?.tone ?? "open"}`, props.className]
        .filter(Boolean)
        .join(" ")}
      aria-labelledby={titleId}
      data-testid="approval-card"
      data-interrupt-id={props.interruptId}
      data-state={approval.state}
      data-phase={approval.phase}
    >
      <h3 id={titleId} ref={heading} tabIndex={-1} className="agui-card__title">
        {question}
      </h3>
      {approval.proposed ? (
        <p className="agui-card__proposal">
          Proposed: <code>{approval.proposed.name}</code>
          {Object.keys(approval.proposed.args).length > 0 ? ` (${describeArgs(approval.proposed.args)})` : ""}
        </p>
      ) : null}

      {!unanswered && approval.entry ? (
        <p className="agui-card__decision" data-testid="approval-decision">
          {describeDecision(approval.entry.decision)}
        </p>
      ) : null}
      {answering ? (
        <form
          className="agui-card__form"
          onSubmit={ignoreSubmit}
          noValidate
          aria-describedby={form.errors.form.length > 0 ? formErrorId : undefined}
        >
          {form.fields.length > 0 ? (
            <fieldset className="agui-card__fields" disabled={locked}>
              <legend>Arguments</legend>
              {form.fields.map((field) => (
                <FieldEditor key={field.name} card={card} field={field} disabled={locked} />
              ))}
            </fieldset>
          ) : null}
          {unanswered ? null : (
            <p className="agui-card__again">The question is still open: you can answer again.</p>
          )}
          {form.errors.form.length > 0 ? (
            <p id={formErrorId} className="agui-field__error">
              {form.errors.form.join(" ")}
            </p>
          ) : null}
          <div className="agui-card__actions">
            <button
              type="button"
              className="agui-button agui-button--primary"
              disabled={locked}
              onClick={onApprove}
              data-testid="approve"
            >
              {form.edited ? "Approve with edits" : "Approve"}
            </button>
            <button
              type="button"
              className="agui-button"
              disabled={locked}
              onClick={() => answerWith(card.reject)}
              data-testid="reject"
            >
              Reject
            </button>
            <button
              type="button"
              className="agui-button agui-button--quiet"
              disabled={locked}
              onClick={() => answerWith(approval.cancel)}
              data-testid="cancel"
            >
              Cancel question
            </button>
          </div>
        </form>
      ) : null}

      <p
        ref={status}
        tabIndex={-1}
        className="agui-card__status"
        aria-live="polite"
        data-testid="approval-status"
      >
        {verdict?.sentence ?? (approval.submitting ? "Saving your answer…" : "")}
      </p>
      {approval.state === EntryState.needsUser && approval.lastError ? (
        // The server's code is for whoever debugs: folded under Details, not read as the status.
        <details className="agui-card__detail" data-testid="approval-error-detail">
          <summary>Details</summary>
          {describeEntryError(approval.lastError)}
        </details>
      ) : null}
      {approval.error ? (
        <p className="agui-field__error" role="alert">
          {approval.error.message}
        </p>
      ) : null}
      <CardActions card={card} onDone={focusStatus} onDismiss={onDismiss} />
    </article>
  );
}
