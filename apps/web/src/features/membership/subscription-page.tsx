import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Plan, SubscriptionResponse } from '@marquee/contract';
import { Button, ButtonLink } from '../../components/button.tsx';
import { PageLoading } from '../../components/layout.tsx';
import {
  checkPromo,
  fetchCustomer,
  simulatePaid,
  startPayment,
  storeUser,
} from '../../lib/account/customer-api.ts';
import { firstErrorKey } from '../../lib/account/form-resolver.ts';
import { codeKey, errorKey } from '../../lib/api/index.ts';
import { membershipQueries } from '../../lib/api/queries/membership.ts';
import { clock } from '../../lib/clock.ts';
import { longDateTime, membershipState } from '../../lib/membership-status.ts';
import { discountedCost, formatMoney, planPeriod } from '../../lib/plans.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useAccountStore } from '../../stores/index.ts';
import {
  checkPurchase,
  normalisePromo,
  paymentBody,
  promoIsApplied,
  type AppliedPromo,
} from './purchase-rules.ts';
import { paths } from '../../app/paths.ts';

/** How often the payment is asked about while its QR code is shown. */
export const PAYMENT_POLL_MS = 3_000;

const INPUT =
  'w-full rounded-lg border border-white/10 bg-surface-1 px-3 py-2 text-fg placeholder:text-fg-muted focus:border-accent focus:outline-none';

function usePrice() {
  const { t, i18n } = useTranslation(['membership']);
  return {
    money: (amount: number, currency: string) => formatMoney(amount, currency, i18n.language),
    period: (plan: Plan) => {
      const { unit, count } = planPeriod(plan);
      return t(unit === 'year' ? 'membership.plans.perYear' : 'membership.plans.perMonth', { count });
    },
  };
}

function MembershipStatus() {
  const { t, i18n } = useTranslation(['membership']);
  const user = useAccountStore((s) => s.account?.user);
  const { state, end } = membershipState(user, clock.now());
  const date = end ? longDateTime(end, i18n.language) : '';
  return (
    <p
      className={`rounded-xl px-4 py-3 text-sm font-semibold ${state === 'active' ? 'bg-green-900/40 text-green-200' : 'bg-surface-2 text-fg'}`}
      data-testid="membership-status"
    >
      {state === 'active'
        ? t('membership.status.activeUntil', { date })
        : state === 'ended'
          ? t('membership.status.endedOn', { date })
          : t('membership.status.none')}
    </p>
  );
}

/** The wallet, the QR code, the warning about older links, and the payment's progress (polled). */
function PaymentPanel({ started, onAnother }: { started: SubscriptionResponse; onAnother: () => void }) {
  const { t, i18n } = useTranslation(['errors', 'membership']);
  const { money } = usePrice();
  const client = useQueryClient();
  const [copied, setCopied] = useState(false);
  const config = runtimeConfig();
  const payment = useQuery({
    ...membershipQueries.payment(started.payment.id),
    initialData: {
      payment: started.payment,
      membership: { active: false, endSubcriptionDate: null, pendingPayment: started.payment },
    },
    initialDataUpdatedAt: 0,
    refetchInterval: (q) => (q.state.data?.payment.status === 'pending' ? PAYMENT_POLL_MS : false),
  });
  const status = payment.data.payment.status;
  const paid = status === 'paid';
  const simulate = useMutation({
    mutationFn: () => simulatePaid(started.payment.id),
    onSuccess: (answer) =>
      client.setQueryData(membershipQueries.payment(started.payment.id).queryKey, answer),
  });
  // Paid: the account's membership changed; the server's user replaces the stored one.
  useEffect(() => {
    if (paid) void fetchCustomer().catch(() => undefined);
  }, [paid]);

  if (paid) {
    const end = payment.data.membership.endSubcriptionDate;
    return (
      <section
        className="flex flex-col items-start gap-4 rounded-2xl bg-green-900/30 p-6"
        data-testid="payment-success"
        aria-live="polite"
      >
        <h2 className="text-2xl font-bold text-fg">{t('membership.success.title')}</h2>
        {end && (
          <p className="text-fg">
            {t('membership.success.text', { date: longDateTime(new Date(end), i18n.language) })}
          </p>
        )}
        <ButtonLink to={paths.home}>{t('membership.success.watch')}</ButtonLink>
      </section>
    );
  }
  const p = payment.data.payment;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(started.wallet);
      setCopied(true);
    } catch {
      // No clipboard (insecure context): the address stays selectable.
    }
  };
  return (
    <section
      className="flex flex-col gap-5 rounded-2xl bg-surface-2 p-6"
      data-testid="payment-panel"
      aria-labelledby="pay-title"
    >
      <h2 id="pay-title" className="text-2xl font-bold text-fg">
        {t('membership.pay.title')}
      </h2>
      <p
        role="alert"
        className="rounded-lg bg-amber-900/40 px-3 py-2 text-sm text-amber-100"
        data-testid="payment-warning"
      >
        {t('membership.pay.olderLinks')}
      </p>
      <div className="flex flex-col gap-6 sm:flex-row">
        <img
          src={started.paymentUrl}
          alt={t('membership.pay.qrAlt')}
          width={220}
          height={220}
          className="h-56 w-56 shrink-0 rounded-lg bg-white p-2"
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
            {started.wallet}
          </code>
          <div className="flex flex-wrap items-center gap-3">
            <Button variant="secondary" onClick={() => void copy()}>
              {copied ? t('membership.pay.copied') : t('membership.pay.copy')}
            </Button>
            {status === 'pending' && (
              <span className="flex items-center gap-2 text-sm text-fg-muted" role="status">
                <span className="h-3 w-3 animate-pulse rounded-full bg-accent" aria-hidden="true" />
                {t('membership.pay.waiting')}
              </span>
            )}
          </div>
          {status === 'superseded' && (
            <p role="alert" className="text-sm text-amber-200">
              {t('membership.pay.superseded')}
            </p>
          )}
          {status === 'failed' && (
            <p role="alert" className="text-sm text-red-300">
              {t('membership.pay.failed')}
            </p>
          )}
        </div>
      </div>
      {config.simulatedPayments && status === 'pending' && (
        <div className="flex flex-col items-start gap-2 rounded-lg border border-dashed border-white/20 p-4">
          <p className="text-sm text-fg-muted">{t('membership.pay.simulateNote')}</p>
          <Button
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
      )}
      {status !== 'pending' && (
        <Button variant="secondary" onClick={onAnother}>
          {t('membership.pay.another')}
        </Button>
      )}
    </section>
  );
}

interface PurchaseFields {
  planId: number | null;
  crypto: string;
  hasPromo: boolean;
  promoInput: string;
}

interface PurchaseContext {
  /** The code the server accepted with "Apply". */
  applied: AppliedPromo | null;
  /** The plan shown as chosen before the viewer picks one. */
  firstPlan: number | null;
}

const PURCHASE_FIELD = {
  planRequired: 'planId',
  applyPromoFirst: 'promoInput',
  cryptoRequired: 'crypto',
} as const;
const PURCHASE_ERROR_KEYS = [
  'membership.errors.planRequired',
  'membership.errors.applyPromoFirst',
  'membership.errors.cryptoRequired',
] as const;

/** The purchase rules (purchase-rules.ts) as the form's resolver: the first problem, on its field. */
const purchaseResolver: Resolver<PurchaseFields, PurchaseContext> = (values, context) => {
  const problem = checkPurchase({
    ...values,
    planId: values.planId ?? context?.firstPlan ?? null,
    crypto: values.crypto || null,
    applied: context?.applied ?? null,
  });
  if (!problem) return { values, errors: {} };
  return {
    values: {},
    errors: { [PURCHASE_FIELD[problem]]: { type: 'purchase', message: `membership.errors.${problem}` } },
  };
};

/**
 * `/subscription`: choose a plan and a crypto option, optionally a promo code (which
 * must be applied first), then start the payment: wallet, QR code and the warning that older unpaid
 * links are lost, polled until paid. Signed-in only (the app redirects others).
 */
export function SubscriptionPage() {
  const { t } = useTranslation(['errors', 'membership']);
  usePageTitle(t('membership.pageTitle'));
  const { money, period } = usePrice();
  const plans = useQuery(membershipQueries.plans());
  const cryptos = useQuery(membershipQueries.cryptos());
  // What the viewer picks is the form; what the server answered (the applied code, the payment) is not.
  const [applied, setApplied] = useState<AppliedPromo | null>(null);
  const [promoMessage, setPromoMessage] = useState<{ text: string; ok: boolean } | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [started, setStarted] = useState<SubscriptionResponse | null>(null);
  const form = useForm<PurchaseFields, PurchaseContext>({
    resolver: purchaseResolver,
    context: { applied, firstPlan: plans.data?.[0]?.id ?? null },
    defaultValues: { planId: null, crypto: '', hasPromo: false, promoInput: '' },
  });
  const { planId, crypto, hasPromo, promoInput } = useWatch({ control: form.control });

  const plan = plans.data?.find((p) => p.id === (planId ?? plans.data[0]?.id)) ?? null;
  const draft = {
    planId: plan?.id ?? null,
    crypto: crypto || null,
    hasPromo: hasPromo ?? false,
    promoInput: promoInput ?? '',
    applied,
  };
  const problem = firstErrorKey(form.formState.errors, PURCHASE_ERROR_KEYS);
  const error = problem ? t(problem) : serverError;

  const apply = useMutation({
    mutationFn: () => checkPromo(normalisePromo(draft.promoInput)),
    onMutate: () => {
      setApplied(null);
      setPromoMessage(null);
    },
    onSuccess: (answer) => {
      if (!answer.error && answer.code) {
        setApplied({ code: answer.code.code, rate: answer.code.rate });
        // "Apply the code first" no longer holds.
        form.clearErrors('promoInput');
      }
      setPromoMessage({
        text: answer.error
          ? t(codeKey(answer.errorCode))
          : t('membership.promo.applied', { rate: answer.code?.rate ?? 0 }),
        ok: !answer.error,
      });
    },
    onError: (e) => setPromoMessage({ text: t(errorKey(e)), ok: false }),
  });

  const start = useMutation({
    mutationFn: () => startPayment(paymentBody(draft)),
    onSuccess: (answer) => {
      storeUser(answer.user);
      setStarted(answer);
    },
    onError: (e) => setServerError(t(errorKey(e))),
  });

  if (started) {
    return (
      <div className="mx-auto flex max-w-3xl flex-col gap-6 py-10">
        <h1 className="text-3xl font-bold text-fg">{t('membership.title')}</h1>
        <PaymentPanel
          started={started}
          onAnother={() => {
            setStarted(null);
            setApplied(null);
            form.reset();
            setPromoMessage(null);
          }}
        />
      </div>
    );
  }

  const cryptoField = form.register('crypto');
  const hasPromoField = form.register('hasPromo');
  const promoField = form.register('promoInput');
  const showApplied = draft.hasPromo && promoIsApplied(draft) && applied;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 py-10">
      <div className="flex flex-col gap-3">
        <h1 className="text-3xl font-bold text-fg">{t('membership.title')}</h1>
        <p className="text-fg-muted">{t('membership.intro')}</p>
        <MembershipStatus />
      </div>
      <form
        className="flex flex-col gap-8"
        noValidate
        onSubmit={(e) => {
          setServerError(null);
          void form.handleSubmit(() => start.mutate())(e);
        }}
      >
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-3 text-xl font-bold text-fg">{t('membership.plans.title')}</legend>
          {plans.isPending && <PageLoading />}
          {plans.isError && (
            <p role="alert" className="text-red-300">
              {t('membership.plans.loadFailed')}
            </p>
          )}
          <div className="grid gap-3 sm:grid-cols-2">
            {plans.data?.map((p) => (
              <label
                key={p.id}
                className={`flex cursor-pointer flex-col gap-1 rounded-xl border-2 bg-surface-2 p-4 ${plan?.id === p.id ? 'border-accent' : 'border-transparent hover:border-white/10'}`}
                data-testid="plan-option"
              >
                <input
                  type="radio"
                  name="plan"
                  className="sr-only"
                  checked={plan?.id === p.id}
                  onChange={() => form.setValue('planId', p.id)}
                />
                <span className="text-2xl font-bold text-fg">
                  {money(p.cost, p.currency)}{' '}
                  <span className="text-base font-normal text-fg-muted">{period(p)}</span>
                </span>
                <span className="text-sm text-fg-muted">
                  {t('membership.plans.months', { count: p.duration })}
                </span>
                {p.duration > 1 && (
                  <span className="text-sm text-fg-accent">
                    {t('membership.plans.monthly', { price: money(p.monthlyCost, p.currency) })}
                  </span>
                )}
              </label>
            ))}
          </div>
        </fieldset>

        <fieldset className="flex flex-col gap-3">
          <legend className="mb-3 text-xl font-bold text-fg">{t('membership.crypto.title')}</legend>
          <label htmlFor="crypto" className="text-sm font-semibold text-fg">
            {t('membership.crypto.label')}
          </label>
          <select id="crypto" {...cryptoField} className={INPUT} data-testid="crypto-select">
            <option value="">{t('membership.crypto.placeholder')}</option>
            {cryptos.data?.map((c) => (
              <option key={c.name} value={c.name}>
                {c.display_name}
              </option>
            ))}
          </select>
          {cryptos.isError && (
            <p role="alert" className="text-sm text-red-300">
              {t('membership.crypto.loadFailed')}
            </p>
          )}
          {cryptos.data?.length === 0 && (
            <p className="text-sm text-fg-muted">{t('membership.crypto.none')}</p>
          )}
        </fieldset>

        <div className="flex flex-col gap-3">
          <label className="flex items-center gap-3 text-fg">
            <input type="checkbox" {...hasPromoField} className="h-4 w-4 accent-[var(--color-accent)]" />
            {t('membership.promo.checkbox')}
          </label>
          {draft.hasPromo && (
            <div className="flex flex-col gap-2">
              <label htmlFor="promo-code" className="text-sm font-semibold text-fg">
                {t('membership.promo.label')}
              </label>
              <div className="flex gap-2">
                <input
                  id="promo-code"
                  {...promoField}
                  className={`${INPUT} font-mono uppercase`}
                  autoComplete="off"
                  spellCheck={false}
                />
                <Button
                  variant="secondary"
                  onClick={() => apply.mutate()}
                  disabled={!draft.promoInput.trim() || apply.isPending}
                >
                  {apply.isPending ? t('membership.promo.applying') : t('membership.promo.apply')}
                </Button>
              </div>
              {promoMessage && (
                <p
                  role={promoMessage.ok ? 'status' : 'alert'}
                  className={`text-sm ${promoMessage.ok ? 'text-green-300' : 'text-red-300'}`}
                  data-testid="promo-message"
                >
                  {promoMessage.text}
                </p>
              )}
            </div>
          )}
        </div>

        {plan && (
          <p className="text-lg text-fg" data-testid="payment-total">
            {t('membership.total', {
              price: money(showApplied ? discountedCost(plan.cost, applied.rate) : plan.cost, plan.currency),
            })}
            {showApplied && (
              <span className="ms-2 text-sm text-fg-muted">
                {t('membership.promo.was', { price: money(plan.cost, plan.currency) })}
              </span>
            )}
          </p>
        )}
        {error && (
          <p
            role="alert"
            className="rounded-lg bg-red-900/40 px-3 py-2 text-sm text-red-200"
            data-testid="payment-error"
          >
            {error}
          </p>
        )}
        <div>
          <Button type="submit" disabled={start.isPending || !plans.data}>
            {start.isPending ? t('membership.starting') : t('membership.start')}
          </Button>
        </div>
      </form>
    </div>
  );
}
