import type { AnswerCheck, AnswerViolation } from "@agui-outbox/core";
import { useCallback, useEffect, useMemo, useState } from "react";
import {
  FieldKind,
  type FieldValue,
  type FormErrors,
  type FormField,
  type FormValues,
  formFields,
  groupViolations,
  initialValues,
  toArgs,
} from "./approval-form";
import { useAnswerValidator } from "./use-answer-validator";

export interface ApprovalFormModel {
  readonly fields: readonly FormField[];
  readonly values: FormValues;
  /** Messages for the fields the person changed (every field after `showAllErrors()`). */
  readonly errors: FormErrors;
  /** Every violation of `{approved: true, editedArgs}`, shown or not. */
  readonly violations: readonly AnswerViolation[];
  readonly valid: boolean;
  /** True when the arguments differ from the proposed ones (not from where the inputs started). */
  readonly edited: boolean;
  /** The arguments to send with an approval: undefined when nothing was edited. */
  readonly editedArgs: Readonly<Record<string, unknown>> | undefined;
  setValue(name: string, value: FieldValue): void;
  /** Reveal errors of untouched fields too (after a submit attempt). */
  showAllErrors(): void;
  reset(): void;
}

const NO_ERRORS: FormErrors = { fields: {}, form: [] };
const NO_VIOLATIONS: readonly AnswerViolation[] = [];
const VALID: AnswerCheck = { valid: true };

function canonical(value: unknown): string {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * The editor's state: values, validation against `responseSchema` as the
 * person types (CSP-safe, through the core's `checkAnswer`), and the edited
 * arguments to send.
 */
export function useApprovalForm(
  responseSchema: Readonly<Record<string, unknown>> | undefined,
  proposedArgs: Readonly<Record<string, unknown>>,
  /** Where the inputs start (for example a kept answer's edits); defaults to the proposal. */
  startArgs: Readonly<Record<string, unknown>> = proposedArgs,
): ApprovalFormModel {
  const fields = useMemo(() => formFields(responseSchema), [responseSchema]);
  const startKey = canonical(startArgs);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by content, not identity
  const initial = useMemo(() => initialValues(fields, startArgs), [fields, startKey]);
  const [values, setValues] = useState<FormValues>(initial);
  const [dirty, setDirty] = useState<ReadonlySet<string>>(new Set());
  const [showAll, setShowAll] = useState(false);

  // The proposal can arrive after mount (hydration): follow it until the person edits.
  useEffect(() => {
    if (dirty.size === 0) setValues(initial);
  }, [initial, dirty]);

  const args = useMemo(() => {
    const all = toArgs(fields, values);
    // An unchecked box the proposal did not mention, left alone, is no edit: leave it out.
    for (const field of fields)
      if (
        field.kind === FieldKind.boolean &&
        all[field.name] === false &&
        !dirty.has(field.name) &&
        !Object.hasOwn(startArgs, field.name)
      )
        delete all[field.name];
    return all;
  }, [fields, values, dirty, startArgs]);
  // The validator is loaded on first use, a moment after the card appears. Until it
  // is there the form shows no violation and lets an answer through: `answer()`
  // checks the payload itself (awaiting the same validator) before anything is
  // enqueued, so an invalid answer is still refused with its violations.
  const checkAnswer = useAnswerValidator(fields.length > 0);
  const check = useMemo(
    (): AnswerCheck =>
      fields.length === 0
        ? VALID
        : checkAnswer
          ? checkAnswer({ approved: true, editedArgs: args }, responseSchema)
          : VALID,
    [fields, args, responseSchema, checkAnswer],
  );
  const violations = check.valid ? NO_VIOLATIONS : check.violations;
  const errors = useMemo(() => {
    if (violations.length === 0) return NO_ERRORS;
    const grouped = groupViolations(fields, violations, args);
    if (showAll) return grouped;
    const shown: Record<string, string> = {};
    for (const [name, message] of Object.entries(grouped.fields)) if (dirty.has(name)) shown[name] = message;
    return { fields: shown, form: dirty.size > 0 ? grouped.form : [] };
  }, [violations, fields, args, showAll, dirty]);

  const edited = fields.length > 0 && canonical({ ...proposedArgs, ...args }) !== canonical(proposedArgs);
  const setValue = useCallback((name: string, value: FieldValue) => {
    setValues((current) => ({ ...current, [name]: value }));
    setDirty((current) => (current.has(name) ? current : new Set([...current, name])));
  }, []);
  const showAllErrors = useCallback(() => setShowAll(true), []);
  const reset = useCallback(() => {
    setDirty(new Set());
    setShowAll(false);
    setValues(initial);
  }, [initial]);

  return {
    fields,
    values,
    errors,
    violations,
    valid: check.valid,
    edited,
    editedArgs: edited ? args : undefined,
    setValue,
    showAllErrors,
    reset,
  };
}
