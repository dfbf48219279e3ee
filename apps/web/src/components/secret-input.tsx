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
      inputClassName={`${FIELD_INPUT} pe-20`}
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
