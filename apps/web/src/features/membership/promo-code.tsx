import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button.tsx';
import type { PromoMessage } from './purchase-form.ts';
import { describedBy, FieldError, INPUT, NOTE } from './purchase-parts.tsx';

/** "I have a promo code": the code's field with Apply, its error and the server's answer about it. */
export function PromoCode({
  checkbox,
  field,
  open,
  canApply,
  applying,
  onApply,
  error,
  note,
}: {
  /** The form's `hasPromo` field. */
  checkbox: UseFormRegisterReturn<'hasPromo'>;
  /** The form's `promoInput` field. */
  field: UseFormRegisterReturn<'promoInput'>;
  /** The box is ticked: the code's field shows. */
  open: boolean;
  /** The field holds a code. */
  canApply: boolean;
  applying: boolean;
  onApply(): void;
  /** Translated. */
  error: string | null;
  /** The answer about the code the field holds. */
  note: PromoMessage | null;
}) {
  const { t } = useTranslation(['membership']);
  return (
    <div className="flex flex-col gap-3">
      <label className="flex min-h-11 items-center gap-3 text-fg">
        <input type="checkbox" {...checkbox} className="h-5 w-5 accent-[var(--color-accent)]" />
        {t('membership.promo.checkbox')}
      </label>
      {open && (
        <div className="flex flex-col gap-2">
          <label htmlFor="promo-code" className="text-sm font-semibold text-fg">
            {t('membership.promo.label')}
          </label>
          <div className="flex gap-2">
            <input
              id="promo-code"
              {...field}
              className={`${INPUT} font-mono uppercase`}
              autoComplete="off"
              spellCheck={false}
              {...describedBy(
                Boolean(error) || note?.ok === false,
                error && NOTE.promo,
                note && NOTE.promoAnswer,
              )}
            />
            <Button
              variant="secondary"
              className="min-h-11 shrink-0"
              onClick={onApply}
              disabled={!canApply || applying}
            >
              {applying ? t('membership.promo.applying') : t('membership.promo.apply')}
            </Button>
          </div>
          <FieldError id={NOTE.promo} text={error} />
          {note && (
            <p
              id={NOTE.promoAnswer}
              role={note.ok ? 'status' : 'alert'}
              className={`text-sm ${note.ok ? 'text-green-300' : 'text-red-300'}`}
              data-testid={NOTE.promoAnswer}
            >
              {note.text}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
