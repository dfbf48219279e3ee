import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Payment, PaymentStatus, SubscriptionResponse } from '@marquee/contract';
import { Button, ButtonLink } from '../../components/button.tsx';
import { fetchCustomer, simulatePaid } from '../../lib/account/customer-api.ts';
import { errorKey } from '../../lib/api/index.ts';
import { membershipQueries } from '../../lib/api/queries/membership.ts';
import { longDateTime } from '../../lib/membership-status.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { useFocusOnStepChange } from './purchase-step.ts';
import { RetryAlert } from '../../components/retry-alert.tsx';
import { usePrice } from './use-price.ts';
import { paths } from '../../lib/paths.ts';

/** How often the payment is asked about while its QR code is shown. */
export const PAYMENT_POLL_MS = 3_000;

/** The payment step's heading (focused when the step opens, and again when the payment is paid). */
export const PAY_HEADING = 'pay-title';

/** What the live region says for each status of the payment. */
const STATUS_TEXT = {
  pending: 'membership.pay.waiting',
  paid: 'membership.success.title',
  superseded: 'membership.pay.superseded',
  failed: 'membership.pay.failed',
} as const satisfies Record<PaymentStatus, string>;

const HEADING = 'font-bold text-fg focus:outline-none';

/**
 * The payment step: the wallet, the QR code, the warning about older links, and the payment's progress
 * (polled). Back returns to the choice, which is kept. One live region announces each status change; the
 * visible texts carry no roles of their own, so nothing is read twice.
 */
export function PaymentStep({
  started,
  title,
  onBack,
  onAnother,
}: {
  started: SubscriptionResponse;
  /** The page's heading while the payment is not paid yet. */
  title: string;
  onBack: () => void;
  onAnother: () => void;
}) {
  const { t } = useTranslation(['errors', 'membership']);
  const { payment, simulate } = usePaymentProgress(started);
  const status = payment.data.payment.status;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 py-10">
      <p role="status" className="sr-only" data-testid="payment-status">
        {t(STATUS_TEXT[status])}
      </p>
      {status === 'paid' ? (
        <PaymentSuccess end={payment.data.membership.endSubcriptionDate} />
      ) : (
        <>
          <h1 className="text-3xl font-bold text-fg">{title}</h1>
          <section
            className="flex flex-col gap-5 rounded-2xl bg-surface-2 p-4 sm:p-6"
            data-testid="payment-panel"
            aria-labelledby={PAY_HEADING}
          >
            <h2 id={PAY_HEADING} tabIndex={-1} className={`text-2xl ${HEADING}`}>
              {t('membership.pay.title')}
            </h2>
            <p
              className="rounded-lg bg-amber-900/40 px-3 py-2 text-sm text-amber-100"
              data-testid="payment-warning"
            >
              {t('membership.pay.olderLinks')}
            </p>
            <PaymentDetails payment={payment.data.payment} wallet={started.wallet} qr={started.paymentUrl} />
            {payment.isError && (
              <RetryAlert
                retryLabel={t('membership.retry')}
                message={t('membership.pay.statusFailed')}
                onRetry={() => void payment.refetch()}
                testId="payment-status-error"
              />
            )}
            {runtimeConfig().simulatedPayments && status === 'pending' && (
              <SimulatePayment simulate={simulate} />
            )}
            <div className="flex flex-wrap gap-3">
              <Button variant="secondary" className="min-h-11" onClick={onBack} data-testid="payment-back">
                {t('membership.pay.back')}
              </Button>
              {status !== 'pending' && (
                <Button variant="secondary" className="min-h-11" onClick={onAnother}>
                  {t('membership.pay.another')}
                </Button>
              )}
            </div>
          </section>
        </>
      )}
    </div>
  );
}

/**
 * The started payment, asked about every `PAYMENT_POLL_MS` while pending, and the simulated gateway's
 * "paid" (its answer is the payment's new state). Once paid, the account's user is read again and the
 * success heading takes the focus.
 */
function usePaymentProgress(started: SubscriptionResponse) {
  const client = useQueryClient();
  const payment = useQuery({
    ...membershipQueries.payment(started.payment.id),
    initialData: {
      payment: started.payment,
      membership: { active: false, endSubcriptionDate: null, pendingPayment: started.payment },
    },
    initialDataUpdatedAt: 0,
    refetchInterval: (q) => (q.state.data?.payment.status === 'pending' ? PAYMENT_POLL_MS : false),
  });
  const paid = payment.data.payment.status === 'paid';
  const simulate = useMutation({
    mutationFn: () => simulatePaid(started.payment.id),
    onSuccess: (answer) =>
      client.setQueryData(membershipQueries.payment(started.payment.id).queryKey, answer),
  });
  // Paid: the account's membership changed; the server's user replaces the stored one.
  useEffect(() => {
    if (paid) void fetchCustomer().catch(() => undefined);
  }, [paid]);
  // The button that was pressed (Simulate) is gone once paid: the new heading takes the focus.
  useFocusOnStepChange(paid, PAY_HEADING);
  return { payment, simulate };
}

function PaymentSuccess({ end }: { end: string | null }) {
  const { t, i18n } = useTranslation(['membership']);
  return (
    <section
      className="flex flex-col items-start gap-4 rounded-2xl bg-green-900/30 p-4 sm:p-6"
      data-testid="payment-success"
    >
      <h1 id={PAY_HEADING} tabIndex={-1} className={`text-3xl ${HEADING}`}>
        {t('membership.success.title')}
      </h1>
      {end && (
        <p className="text-fg">
          {t('membership.success.text', { date: longDateTime(new Date(end), i18n.language) })}
        </p>
      )}
      <ButtonLink to={paths.home} className="min-h-11">
        {t('membership.success.watch')}
      </ButtonLink>
    </section>
  );
}

/** The QR code beside what to send where: the amount, the wallet (with Copy) and the payment's state. */
function PaymentDetails({ payment: p, wallet, qr }: { payment: Payment; wallet: string; qr: string }) {
  const { t } = useTranslation(['membership']);
  const { money } = usePrice();
  return (
    <div className="flex flex-col gap-6 sm:flex-row">
      <img
        src={qr}
        alt={t('membership.pay.qrAlt')}
        width={220}
        height={220}
        className="h-56 w-56 shrink-0 self-center rounded-lg bg-white p-2 sm:self-start"
        data-testid="payment-qr"
      />
      <div className="flex min-w-0 flex-col gap-3">
        <p className="text-fg">
          {p.cryptoAmount
            ? t('membership.pay.text', { amount: p.cryptoAmount, crypto: p.cryptoDisplayName })
            : t('membership.pay.textFiat', {
                price: money(Number(p.amount), p.currency),
                crypto: p.cryptoDisplayName,
              })}
        </p>
        <p className="text-sm font-semibold text-fg-muted">{t('membership.pay.wallet')}</p>
        <code
          className="break-all rounded-lg bg-surface-1 px-3 py-2 font-mono text-sm text-fg"
          dir="ltr"
          data-testid="payment-wallet"
        >
          {wallet}
        </code>
        <div className="flex flex-wrap items-center gap-3">
          <CopyWallet wallet={wallet} />
          {p.status === 'pending' && (
            <span className="flex items-center gap-2 text-sm text-fg-muted">
              <span className="h-3 w-3 animate-pulse rounded-full bg-accent" aria-hidden="true" />
              {t('membership.pay.waiting')}
            </span>
          )}
        </div>
        {p.status === 'superseded' && (
          <p className="text-sm text-amber-200">{t('membership.pay.superseded')}</p>
        )}
        {p.status === 'failed' && <p className="text-sm text-red-300">{t('membership.pay.failed')}</p>}
      </div>
    </div>
  );
}

function CopyWallet({ wallet }: { wallet: string }) {
  const { t } = useTranslation(['membership']);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(wallet);
      setCopied(true);
    } catch {
      // No clipboard (insecure context): the address stays selectable.
    }
  };
  return (
    <Button variant="secondary" className="min-h-11" onClick={() => void copy()}>
      {copied ? t('membership.pay.copied') : t('membership.pay.copy')}
    </Button>
  );
}

/** The simulated gateway (tests, demos): marks the payment paid. */
function SimulatePayment({ simulate }: { simulate: ReturnType<typeof usePaymentProgress>['simulate'] }) {
  const { t } = useTranslation(['errors', 'membership']);
  return (
    <div className="flex flex-col items-start gap-2 rounded-lg border border-dashed border-white/20 p-4">
      <p className="text-sm text-fg-muted">{t('membership.pay.simulateNote')}</p>
      <Button
        className="min-h-11"
        onClick={() => simulate.mutate()}
        disabled={simulate.isPending}
        data-testid="simulate-payment"
      >
        {t('membership.pay.simulate')}
      </Button>
      {simulate.isError && (
        <p role="alert" className="text-sm text-red-300">
          {t(errorKey(simulate.error))}
        </p>
      )}
    </div>
  );
}
