import { EntryState } from "@agui-outbox/core";
import { type FormEvent, type ReactNode, useId } from "react";
import { type ApprovalCardModel, useApprovalCard } from "./approval-card";
import { FieldKind, type FormField } from "./approval-form";
import { describeArgs, describeDecision } from "./describe-decision";
import type { CountdownClock } from "./use-retry-countdown";

export interface DefaultApprovalCardProps {
  readonly threadId: string;
  readonly interruptId: string;
  /** Clock for the retry countdown (tests). */
  readonly clock?: CountdownClock;
  /** Extra class names on the card's root. */
  readonly className?: string;
}

function FieldEditor(props: { card: ApprovalCardModel; field: FormField; disabled: boolean }): ReactNode {
  const { card, field, disabled } = props;
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const error = card.form.errors.fields[field.name];
  const value = card.form.values[field.name];
  const describedBy =
    [field.description ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    name: field.name,
    disabled,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy,
    "aria-required": field.required || undefined,
    "data-testid": `approval-field-${field.name}`,
  } as const;

  let input: ReactNode;
  if (field.kind === FieldKind.boolean) {
    input = (
      <input
        {...common}
        type="checkbox"
        checked={value === true}
        onChange={(event) => card.form.setValue(field.name, event.currentTarget.checked)}
      />
    );
  } else if (field.kind === FieldKind.enum) {
    input = (
      <select
        {...common}
        value={String(value ?? "")}
        onChange={(event) => card.form.setValue(field.name, event.currentTarget.value)}
      >
        {field.required ? null : <option value="">—</option>}
        {field.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  } else {
    input = (
      <input
        {...common}
        type="text"
        inputMode={
          field.kind === FieldKind.string
            ? undefined
            : field.kind === FieldKind.integer
              ? "numeric"
              : "decimal"
        }
        autoComplete="off"
        value={String(value ?? "")}
        onChange={(event) => card.form.setValue(field.name, event.currentTarget.value)}
      />
    );
  }

  return (
    <div className={`agui-field agui-field--${field.kind}`}>
      <label htmlFor={id}>
        {field.label}
        {field.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {input}
      {field.description ? (
        <p id={hintId} className="agui-field__hint">
          {field.description}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="agui-field__error" data-testid={`approval-error-${field.name}`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Removes an answer with a final verdict from the outbox (the card returns to the question if it is still open). */
function DismissButton(props: { approval: { discard(): Promise<void> } }): ReactNode {
  return (
    <button
      type="button"
      className="agui-button"
      onClick={() => void props.approval.discard()}
      data-testid="dismiss"
    >
      Dismiss
    </button>
  );
}

function Actions(props: { card: ApprovalCardModel }): ReactNode {
  const { approval, secondsLeft } = props.card;
  switch (approval.state) {
    case EntryState.retryWait:
      return (
        <button
          type="button"
          className="agui-button"
          onClick={() => void approval.retryNow()}
          data-testid="retry-now"
        >
          Retry now{secondsLeft !== null ? ` (${secondsLeft}s)` : ""}
        </button>
      );
    case EntryState.lost:
      return (
        <>
          <button
            type="button"
            className="agui-button agui-button--primary"
            onClick={() => void approval.resendAsMessage()}
            data-testid="resend"
          >
            Resend as a message
          </button>
          <DismissButton approval={approval} />
        </>
      );
    case EntryState.applied:
    case EntryState.elsewhere:
    case EntryState.needsUser:
    case EntryState.expired:
      return <DismissButton approval={approval} />;
    default:
      return null;
  }
}

/**
 * A ready-made approval card: the question, an argument editor generated from
 * `responseSchema` that validates as the person types, Approve / Reject /
 * Cancel buttons, and a polite live region announcing each status change.
 * Style it with `@agui-outbox/react/styles.css` (class names `agui-*`).
 */
export function DefaultApprovalCard(props: DefaultApprovalCardProps): ReactNode {
  const card = useApprovalCard(props.threadId, props.interruptId, props.clock);
  const { approval, form, verdict } = card;
  const titleId = useId();
  const formErrorId = useId();
  const unanswered = approval.state === "unanswered";
  const answering = card.canAnswer;
  const question =
    approval.interrupt?.message ?? (approval.proposed ? `Run ${approval.proposed.name}?` : "Approval needed");
  const locked = !answering || approval.submitting;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void card.approve();
  };

  return (
    <section
      className={["agui-card", `agui-card--${verdict?.tone ?? "open"}`, props.className]
        .filter(Boolean)
        .join(" ")}
      aria-labelledby={titleId}
      data-testid="approval-card"
      data-interrupt-id={props.interruptId}
      data-state={approval.state}
    >
      <h3 id={titleId} className="agui-card__title">
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
          onSubmit={onSubmit}
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
              type="submit"
              className="agui-button agui-button--primary"
              disabled={locked}
              data-testid="approve"
            >
              {form.edited ? "Approve with edits" : "Approve"}
            </button>
            <button
              type="button"
              className="agui-button"
              disabled={locked}
              onClick={() => void card.reject()}
              data-testid="reject"
            >
              Reject
            </button>
            <button
              type="button"
              className="agui-button agui-button--quiet"
              disabled={locked}
              onClick={() => void approval.cancel()}
              data-testid="cancel"
            >
              Cancel question
            </button>
          </div>
        </form>
      ) : null}

      <p className="agui-card__status" aria-live="polite" data-testid="approval-status">
        {verdict?.sentence ?? (approval.submitting ? "Saving your answer…" : "")}
      </p>
      {approval.state === EntryState.needsUser && approval.lastError ? (
        <p className="agui-card__detail">
          Server said: {approval.lastError.code ?? approval.lastError.message}
        </p>
      ) : null}
      {approval.error ? (
        <p className="agui-field__error" role="alert">
          {approval.error.message}
        </p>
      ) : null}
      <div className="agui-card__actions">
        <Actions card={card} />
      </div>
    </section>
  );
}
