import type { UseQueryResult } from '@tanstack/react-query';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { CryptoOption } from '@marquee/contract';
import { RetryAlert } from '../../components/retry-alert.tsx';
import { describedBy, FieldError, INPUT, NOTE } from './purchase-parts.tsx';

/** The payment options as a select (a load failure with Try again, or that there are none), and its error. */
export function CryptoChoice({
  cryptos,
  field,
  error,
}: {
  cryptos: Pick<UseQueryResult<CryptoOption[]>, 'data' | 'isError' | 'refetch'>;
  /** The form's `crypto` field. */
  field: UseFormRegisterReturn<'crypto'>;
  /** Translated. */
  error: string | null;
}) {
  const { t } = useTranslation(['membership']);
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-3 text-xl font-bold text-fg">{t('membership.crypto.title')}</legend>
      <label htmlFor="crypto" className="text-sm font-semibold text-fg">
        {t('membership.crypto.label')}
      </label>
      <select
        id="crypto"
        {...field}
        className={INPUT}
        data-testid="crypto-select"
        {...describedBy(Boolean(error), error && NOTE.crypto)}
      >
        <option value="">{t('membership.crypto.placeholder')}</option>
        {cryptos.data?.map((c) => (
          <option key={c.name} value={c.name}>
            {c.display_name}
          </option>
        ))}
      </select>
      <FieldError id={NOTE.crypto} text={error} />
      {cryptos.isError && (
        <RetryAlert
          retryLabel={t('membership.retry')}
          message={t('membership.crypto.loadFailed')}
          onRetry={() => void cryptos.refetch()}
          testId="crypto-load-error"
        />
      )}
      {cryptos.data?.length === 0 && <p className="text-sm text-fg-muted">{t('membership.crypto.none')}</p>}
    </fieldset>
  );
}
