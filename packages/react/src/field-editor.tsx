import { type ReactNode, useId } from "react";
import type { ApprovalCardModel } from "./approval-card";
import { FieldKind, type FormField } from "./approval-form";

/** One labelled input of the argument editor, with its hint and its error tied by `aria-describedby`. */
export function FieldEditor(props: {
  card: ApprovalCardModel;
  field: FormField;
  disabled: boolean;
}): ReactNode {
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

  const required = field.required ? <span aria-hidden="true"> *</span> : null;
  return (
    <div className={`agui-field agui-field--${field.kind}`}>
      {field.kind === FieldKind.boolean ? (
        // The checkbox inside its label: one target of at least 44 px.
        <label htmlFor={id} className="agui-check">
          {input}
          {field.label}
          {required}
        </label>
      ) : (
        <>
          <label htmlFor={id}>
            {field.label}
            {required}
          </label>
          {input}
        </>
      )}
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
