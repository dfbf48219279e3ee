import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export const INPUT =
  'w-full rounded-lg border border-white/10 bg-surface-1 px-3 py-2 text-fg placeholder:text-fg-muted focus:border-accent focus:outline-none';

export function AuthCard({
  title,
  children,
  wide = false,
}: {
  title: string;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <div
      className={`mx-auto my-10 w-full ${wide ? 'max-w-2xl' : 'max-w-md'} rounded-2xl border border-white/5 bg-surface-2 p-6 shadow-xl sm:p-8`}
    >
      <h1 className="mb-6 text-2xl font-bold text-fg">{title}</h1>
      {children}
    </div>
  );
}

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

/** What a field says under itself: its hint, then its error (`<id>-hint`, `<id>-error`). */
function FieldNotes({ id, hint, error }: { id: string; hint?: string; error?: string | null }) {
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

/** The input's link to its hint and error, for screen readers. */
function describedBy(id: string, hint?: string, error?: string | null) {
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined,
  } as const;
}

/** A password-style field with a show/hide toggle; its hint and error show under it. */
export function SecretInput({
  id,
  value,
  onChange,
  label,
  autoComplete = 'off',
  hint,
  error,
  oneLinePaste = false,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  label: string;
  autoComplete?: string;
  hint?: string;
  error?: string | null;
  /**
   * A pasted text's line breaks become spaces (a passphrase copied as a list of words): an input
   * would otherwise drop them and join the words.
   */
  oneLinePaste?: boolean;
}) {
  const { t } = useTranslation(['auth']);
  const [shown, setShown] = useState(false);
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-semibold text-fg">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          type={shown ? 'text' : 'password'}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onPaste={(e) => {
            const text = e.clipboardData.getData('text');
            if (!oneLinePaste || !/[\r\n]/.test(text)) return;
            e.preventDefault();
            const input = e.currentTarget;
            const start = input.selectionStart ?? value.length;
            const end = input.selectionEnd ?? value.length;
            onChange(value.slice(0, start) + text.replace(/\s*[\r\n]+\s*/g, ' ') + value.slice(end));
          }}
          autoComplete={autoComplete}
          spellCheck={false}
          className={`${INPUT} pe-20`}
          {...describedBy(id, hint, error)}
        />
        <button
          type="button"
          onClick={() => setShown((s) => !s)}
          className="absolute end-2 top-1/2 -translate-y-1/2 rounded px-2 py-1 text-xs text-fg-muted hover:text-fg"
        >
          {shown ? t('auth.hide') : t('auth.show')}
        </button>
      </div>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

export {
  ColorSwatches as ColorPicker,
  IconChoices as IconPicker,
} from '../../components/profile-pickers.tsx';

/** The server's message in an alert the user can dismiss (registration errors). */
export function DismissibleAlert({ message, onDismiss }: { message: string | null; onDismiss: () => void }) {
  const { t } = useTranslation(['global']);
  if (!message) return null;
  return (
    <div
      role="alert"
      className="flex items-start justify-between gap-3 rounded-lg bg-red-900/40 px-3 py-2 text-sm text-red-200"
      data-testid="server-alert"
    >
      <span>{message}</span>
      <button type="button" onClick={onDismiss} className="shrink-0 font-semibold underline">
        {t('global.dismiss')}
      </button>
    </div>
  );
}

export function TextField({
  id,
  label,
  value,
  onChange,
  type = 'text',
  autoComplete,
  hint,
  error,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  type?: string;
  autoComplete?: string;
  hint?: string;
  error?: string | null;
}) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-semibold text-fg">
        {label}
      </label>
      <input
        id={id}
        type={type}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoComplete={autoComplete}
        className={INPUT}
        {...describedBy(id, hint, error)}
      />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
