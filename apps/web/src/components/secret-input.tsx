import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FIELD_INPUT, FormField } from './form-field.tsx';

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
      inputClassName={`${FIELD_INPUT} min-h-11 pe-20`}
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
          // A 44 px touch target: the field's whole height at its end.
          className="absolute inset-y-0 end-0 flex min-w-11 items-center justify-center rounded-e-lg px-3 text-xs text-fg-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
        >
          {shown ? t('auth.hide') : t('auth.show')}
        </button>
      }
    />
  );
}
