import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import type { Promo } from '@marquee/contract';
import { Button } from '../../components/button.tsx';
import { FormField } from '../../components/form-field.tsx';
import { PageLoading } from '../../components/layout.tsx';
import { RetryAlert } from '../../components/retry-alert.tsx';
import { createPromo } from '../../lib/account/customer-api.ts';
import { ApiError, errorKey } from '../../lib/api/index.ts';
import { adminQueries } from '../../lib/api/queries/admin.ts';
import { longDateTime } from '../../lib/membership-status.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { parsePromoRate, type PromoRateError } from './promo-rules.ts';
import { paths } from '../../lib/paths.ts';

const INPUT =
  'min-h-11 w-full rounded-lg border border-white/10 bg-surface-1 px-3 py-2 text-fg placeholder:text-fg-muted focus:border-accent focus:outline-none aria-[invalid=true]:border-red-400';
const COLUMNS = ['code', 'rate', 'status', 'created', 'used'] as const;
const forbidden = (e: unknown) => e instanceof ApiError && (e.status === 401 || e.status === 403);

function StateBadge({ promo }: { promo: Promo }) {
  const { t } = useTranslation(['admin']);
  const state = promo.isUsed ? 'used' : promo.isReserved ? 'reserved' : 'available';
  const colors = {
    used: 'bg-surface-3 text-fg-muted',
    reserved: 'bg-amber-900/50 text-amber-200',
    available: 'bg-green-900/50 text-green-200',
  };
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${colors[state]}`}>
      {t(`admin.promos.states.${state}`)}
    </span>
  );
}

/** `/promos` (admins only; the app redirects others): every code, and a form to make one. */
export function PromosPage() {
  const { t } = useTranslation(['admin', 'errors']);
  usePageTitle(t('admin.promos.pageTitle'));
  const promos = useQuery({
    ...adminQueries.promos(),
    retry: (n, e) => !forbidden(e) && n < 1,
  });
  const creation = usePromoCreation();
  const { create } = creation;
  if (promos.isError && forbidden(promos.error)) return <Navigate replace to={paths.home} />;

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-8 py-10">
      <div>
        <h1 className="text-3xl font-bold text-fg">{t('admin.promos.title')}</h1>
        <p className="mt-2 text-fg-muted">{t('admin.promos.intro')}</p>
      </div>
      <NewPromoForm
        rate={creation.rate}
        error={creation.rateError}
        inputRef={creation.rateInput}
        creating={create.isPending}
        onRateChange={creation.changeRate}
        onSubmit={creation.submit}
      />
      {create.isError && (
        <RetryAlert
          retryLabel={t('admin.promos.retry')}
          message={t(errorKey(create.error))}
          onRetry={() => create.mutate(create.variables)}
          testId="promo-create-error"
        />
      )}
      {create.data && (
        <p
          role="status"
          className="rounded-lg bg-green-900/40 px-3 py-2 text-green-100"
          data-testid="promo-created"
        >
          {t('admin.promos.created', { code: create.data.created.code, rate: create.data.created.rate })}
        </p>
      )}
      {promos.isPending && <PageLoading />}
      {promos.isError && (
        <RetryAlert
          retryLabel={t('admin.promos.retry')}
          message={t('admin.promos.loadFailed')}
          onRetry={() => void promos.refetch()}
          testId="promos-load-error"
        />
      )}
      {promos.data?.length === 0 && <p className="text-fg-muted">{t('admin.promos.empty')}</p>}
      {promos.data && promos.data.length > 0 && <PromoTable promos={promos.data} />}
    </div>
  );
}

/**
 * The new code's rate as typed, what is wrong with it, and its creation. The mutation holds the last
 * answer: a new attempt (or reset) replaces the old success or error.
 */
function usePromoCreation() {
  const client = useQueryClient();
  const [rate, setRate] = useState('');
  const [rateError, setRateError] = useState<PromoRateError | null>(null);
  const rateInput = useRef<HTMLInputElement>(null);
  const create = useMutation({
    mutationFn: (value: number | undefined) => createPromo(value),
    onSuccess: (answer) => {
      client.setQueryData(adminQueries.promos().queryKey, answer.codes);
      setRate('');
    },
  });
  const submit = () => {
    const parsed = parsePromoRate(rate);
    setRateError('error' in parsed ? parsed.error : null);
    if ('error' in parsed) {
      // The last code's success (or failure) is not about this attempt.
      create.reset();
      rateInput.current?.focus();
      return;
    }
    create.mutate(parsed.rate);
  };
  const changeRate = (value: string) => {
    setRate(value);
    // What was said about the old value is stale now.
    setRateError(null);
    if (create.isError) create.reset();
  };
  return { rate, rateError, rateInput, create, submit, changeRate };
}

function NewPromoForm({
  rate,
  error,
  inputRef,
  creating,
  onRateChange,
  onSubmit,
}: {
  rate: string;
  error: PromoRateError | null;
  inputRef: Ref<HTMLInputElement>;
  creating: boolean;
  onRateChange: (rate: string) => void;
  onSubmit: () => void;
}) {
  const { t } = useTranslation(['admin']);
  return (
    <form
      className="flex flex-col gap-3 rounded-2xl bg-surface-2 p-5 sm:flex-row sm:items-start"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <div className="flex-1">
        <FormField
          id="promo-rate"
          label={t('admin.promos.rate')}
          hint={t('admin.promos.rateHint')}
          error={error && t(`admin.promos.${error}`)}
          ref={inputRef}
          type="number"
          inputMode="numeric"
          min={1}
          max={100}
          step={1}
          value={rate}
          onChange={(e) => onRateChange(e.target.value)}
          placeholder={t('admin.promos.ratePlaceholder')}
          inputClassName={INPUT}
        />
      </div>
      <Button type="submit" disabled={creating} className="min-h-11 sm:mt-6">
        {creating ? t('admin.promos.creating') : t('admin.promos.create')}
      </Button>
    </form>
  );
}

/**
 * A table from 640 px up; below, each code is a card with its cells labelled (the explicit roles keep the
 * table for screen readers whatever the display).
 */
function PromoTable({ promos }: { promos: Promo[] }) {
  const { t } = useTranslation(['admin']);
  return (
    <div className="rounded-2xl bg-surface-2">
      <table role="table" className="block w-full text-start text-sm sm:table" data-testid="promo-table">
        {/* eslint-disable-next-line jsx-a11y/no-redundant-roles -- kept when the phone layout changes its display */}
        <thead role="rowgroup" className="sr-only text-fg-muted sm:not-sr-only sm:table-header-group">
          <tr role="row">
            {COLUMNS.map((c) => (
              <th key={c} role="columnheader" scope="col" className="px-4 py-3 text-start font-semibold">
                {t(`admin.promos.columns.${c}`)}
              </th>
            ))}
          </tr>
        </thead>
        {/* eslint-disable-next-line jsx-a11y/no-redundant-roles -- kept when the phone layout changes its display */}
        <tbody role="rowgroup" className="block sm:table-row-group">
          {promos.map((p) => (
            <PromoRow key={p.code} promo={p} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PromoRow({ promo: p }: { promo: Promo }) {
  const { t, i18n } = useTranslation(['admin']);
  const date = (iso: string | null) => (iso ? longDateTime(new Date(iso), i18n.language) : '');
  return (
    <tr
      role="row"
      className="grid grid-cols-2 gap-x-4 gap-y-3 border-t border-white/5 p-4 first:border-t-0 sm:table-row sm:p-0 sm:first:border-t"
      data-testid="promo-row"
    >
      <PromoCell label={t('admin.promos.columns.code')} className="col-span-2 font-mono text-fg">
        <span dir="ltr" className="break-all">
          {p.code}
        </span>
      </PromoCell>
      <PromoCell label={t('admin.promos.columns.rate')} className="text-fg">
        {p.rate}%
      </PromoCell>
      <PromoCell label={t('admin.promos.columns.status')}>
        <StateBadge promo={p} />
      </PromoCell>
      <PromoCell label={t('admin.promos.columns.created')} className="text-fg-muted">
        {date(p.createdAt)}
      </PromoCell>
      <PromoCell label={t('admin.promos.columns.used')} className="text-fg-muted">
        {date(p.usedAt)}
      </PromoCell>
    </tr>
  );
}

/** One cell: on a phone its column's name is shown above it (the header row is visually hidden there). */
function PromoCell({
  label,
  className = '',
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    // eslint-disable-next-line jsx-a11y/no-interactive-element-to-noninteractive-role -- a cell stays a cell when the phone layout changes its display
    <td role="cell" className={`block min-w-0 sm:table-cell sm:px-4 sm:py-3 ${className}`}>
      <span className="mb-1 block font-sans text-xs font-semibold text-fg-muted sm:hidden" aria-hidden="true">
        {label}
      </span>
      {children}
    </td>
  );
}
