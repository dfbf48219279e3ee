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

/** A password-style field with a show/hide toggle. */
export function SecretInput({
  id,
  value,
  onChange,
  label,
  autoComplete = 'off',
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  label: string;
  autoComplete?: string;
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
          autoComplete={autoComplete}
          spellCheck={false}
          className={`${INPUT} pe-20`}
        />
        <button
          type="button"
          onClick={() => setShown((s) => !s)}
          className="absolute end-2 top-1/2 -translate-y-1/2 rounded px-2 py-1 text-xs text-fg-muted hover:text-fg"
        >
          {shown ? t('auth.hide') : t('auth.show')}
        </button>
      </div>
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
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  type?: string;
  autoComplete?: string;
  hint?: string;
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
      />
      {hint && <p className="mt-1 text-xs text-fg-muted">{hint}</p>}
    </div>
  );
}
