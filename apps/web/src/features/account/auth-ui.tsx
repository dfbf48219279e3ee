import type { ReactNode } from 'react';
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

// Shared with the settings' forms (features are islands): they live in components/.
export { FormError } from '../../components/form-field.tsx';
export { SecretInput } from '../../components/secret-input.tsx';

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
