import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FIELD_INPUT, FormField } from '../../components/form-field.tsx';

export const INPUT = FIELD_INPUT;

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
    <FormField
      id={id}
      label={label}
      hint={hint}
      error={error}
      inputClassName={`${INPUT} pe-20`}
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
      adornment={
        <button
          type="button"
          onClick={() => setShown((s) => !s)}
          className="absolute end-2 top-1/2 -translate-y-1/2 rounded px-2 py-1 text-xs text-fg-muted hover:text-fg"
        >
          {shown ? t('auth.hide') : t('auth.show')}
        </button>
      }
    />
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
  inputMode,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  type?: string;
  autoComplete?: string;
  hint?: string;
  error?: string | null;
  /** The phone keyboard to show (`numeric` for codes). */
  inputMode?: 'numeric' | 'text';
}) {
  return (
    <FormField
      id={id}
      label={label}
      type={type}
      {...(inputMode ? { inputMode } : {})}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      autoComplete={autoComplete}
      hint={hint}
      error={error}
    />
  );
}
