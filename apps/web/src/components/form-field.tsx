import type { InputHTMLAttributes, ReactNode, Ref } from 'react';

/** The text input of the account, settings and admin forms. */
export const FIELD_INPUT =
  'w-full rounded-lg border border-white/10 bg-surface-1 px-3 py-2 text-fg placeholder:text-fg-muted focus:border-accent focus:outline-none';

/** The input's link to its hint and error, for screen readers (`<id>-hint`, `<id>-error`). */
export function fieldDescription(id: string, hint?: string | null, error?: string | null, invalid = !!error) {
  return {
    'aria-invalid': invalid ? true : undefined,
    'aria-describedby': [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined,
  } as const;
}

/** What a field says under itself: its hint, then its error (`<id>-hint`, `<id>-error`, test id `<id>-error`). */
export function FieldNotes({ id, hint, error }: { id: string; hint?: string | null; error?: string | null }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-fg-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-300" data-testid={`${id}-error`}>
          {error}
        </p>
      )}
    </>
  );
}

export type FormFieldProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'className' | 'aria-invalid' | 'aria-describedby'
> & {
  id: string;
  /** The label's text (already translated). */
  label: string;
  /** Said under the input and named by its `aria-describedby`. */
  hint?: string | null | undefined;
  /** The field's error (translated): shown under the input, named by `aria-describedby`, sets `aria-invalid`. */
  error?: string | null | undefined;
  /** `aria-invalid` without a message of the field's own (a form-wide message says why). Default: `!!error`. */
  invalid?: boolean | undefined;
  /** The input's classes (default `FIELD_INPUT`). */
  inputClassName?: string | undefined;
  /** Something beside the input inside it (a show/hide toggle): the input is then wrapped in a `relative` box. */
  adornment?: ReactNode;
  /** `register()`'s ref, or the form's own. */
  ref?: Ref<HTMLInputElement> | undefined;
};

/**
 * One labelled input with its hint and error under it (the form-field block of the account, settings and
 * admin forms): the label names the input by `htmlFor`, the hint and the error are `<id>-hint` and
 * `<id>-error`, which the input names in `aria-describedby`, and an error sets `aria-invalid` (decision 084's
 * accessibility rules, docs/architecture.md "Web"). Takes what `register()` gives (`{...register('x')}`) or a
 * value and `onChange`.
 */
export function FormField({
  id,
  label,
  hint,
  error,
  invalid,
  inputClassName = FIELD_INPUT,
  adornment,
  ...input
}: FormFieldProps) {
  const field = (
    <input id={id} className={inputClassName} {...input} {...fieldDescription(id, hint, error, invalid)} />
  );
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-semibold text-fg">
        {label}
      </label>
      {adornment === undefined ? (
        field
      ) : (
        <div className="relative">
          {field}
          {adornment}
        </div>
      )}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** A form's one message that belongs to no field (the server's refusal): an alert above its buttons. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className="rounded-lg bg-red-900/40 px-3 py-2 text-sm text-red-200"
      data-testid="form-error"
    >
      {message}
    </p>
  );
}
