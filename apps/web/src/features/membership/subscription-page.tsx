import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { SubscriptionResponse } from '@marquee/contract';
import { Button } from '../../components/button.tsx';
import { PageLoading } from '../../components/layout.tsx';
import { checkPromo, startPayment, storeUser } from '../../lib/account/customer-api.ts';
import { ApiError, codeKey, errorKey } from '../../lib/api/index.ts';
import { membershipQueries } from '../../lib/api/queries/membership.ts';
import { clock } from '../../lib/clock.ts';
import { longDateTime, membershipState } from '../../lib/membership-status.ts';
import { discountedCost } from '../../lib/plans.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useAccountStore } from '../../stores/index.ts';
import { PAY_HEADING, PaymentStep } from './payment-step.tsx';
import {
  checkPurchase,
  normalisePromo,
  paymentBody,
  promoIsApplied,
  type AppliedPromo,
  type PurchaseError,
} from './purchase-rules.ts';
import { useFocusOnStepChange, usePurchaseStep } from './purchase-step.ts';
import { RetryAlert } from '../../components/retry-alert.tsx';
import { usePrice } from './use-price.ts';

const INPUT =
  'min-h-11 w-full rounded-lg border border-white/10 bg-surface-1 px-3 py-2 text-fg placeholder:text-fg-muted focus:border-accent focus:outline-none aria-[invalid=true]:border-red-400';
/** The choice step's heading (focused when Back returns to it). */
const CHOICE_HEADING = 'membership-title';
/** Ids (and test ids) of the messages under the fields, which the fields name in `aria-describedby`. */
const NOTE = {
  plan: 'plan-error',
  crypto: 'crypto-error',
  promo: 'promo-code-error',
  promoAnswer: 'promo-message',
} as const;

function MembershipStatus({ state, end }: ReturnType<typeof membershipState>) {
  const { t, i18n } = useTranslation(['membership']);
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

/** A field's error under it, named so its input can point at it (`aria-describedby`). */
function FieldError({ id, text }: { id: string; text: string | null }) {
  if (!text) return null;
  return (
    <p id={id} className="text-sm text-red-300" data-testid={id}>
      {text}
    </p>
  );
}

/** The input's link to its messages, for screen readers. */
const describedBy = (invalid: boolean, ...ids: (string | false | null | undefined)[]) =>
  ({
    'aria-invalid': invalid || undefined,
    'aria-describedby': ids.filter(Boolean).join(' ') || undefined,
  }) as const;

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
type PurchaseErrorKey = `membership.errors.${PurchaseError}`;

/** The purchase rules (purchase-rules.ts) as the form's resolver: every problem, each on its field. */
const purchaseResolver: Resolver<PurchaseFields, PurchaseContext> = (values, context) => {
  const problems = checkPurchase({
    ...values,
    planId: values.planId ?? context?.firstPlan ?? null,
    crypto: values.crypto || null,
    applied: context?.applied ?? null,
  });
  if (problems.length === 0) return { values, errors: {} };
  const errors = Object.fromEntries(
    problems.map((p) => [PURCHASE_FIELD[p], { type: 'purchase', message: `membership.errors.${p}` }]),
  );
  return { values: {}, errors };
};

/** The server refused the code itself: that belongs under the promo field, and Retry would not help. */
const isPromoRefusal = (e: unknown) => e instanceof ApiError && e.code.startsWith('promo_');

/** What the promo check (or the payment request) answered about one code. */
interface PromoMessage {
  text: string;
  ok: boolean;
  /** The code it is about, normalised: once the field says something else, the message is stale. */
  code: string;
}

/**
 * `/subscription`: choose a plan and a crypto option, optionally a promo code (which must be applied
 * first), then start the payment: wallet, QR code and the warning that older unpaid links are lost,
 * polled until paid. Two steps, the second in the URL (`?step=pay`) so Back returns to the choice.
 * Signed-in only (the app redirects others).
 */
export function SubscriptionPage() {
  const { t } = useTranslation(['errors', 'membership']);
  usePageTitle(t('membership.pageTitle'));
  const { money, period } = usePrice();
  const user = useAccountStore((s) => s.account?.user);
  const membership = membershipState(user, clock.now());
  const title = t(membership.state === 'active' ? 'membership.titleExtend' : 'membership.title');
  const plans = useQuery(membershipQueries.plans());
  const cryptos = useQuery(membershipQueries.cryptos());
  // What the viewer picks is the form; what the server answered (the applied code, the payment) is not.
  const [applied, setApplied] = useState<AppliedPromo | null>(null);
  const [promoMessage, setPromoMessage] = useState<PromoMessage | null>(null);
  const [started, setStarted] = useState<SubscriptionResponse | null>(null);
  const step = usePurchaseStep(started !== null);
  useFocusOnStepChange(step.paying, step.paying ? PAY_HEADING : CHOICE_HEADING);
  const form = useForm<PurchaseFields, PurchaseContext>({
    resolver: purchaseResolver,
    context: { applied, firstPlan: plans.data?.[0]?.id ?? null },
    defaultValues: { planId: null, crypto: '', hasPromo: false, promoInput: '' },
  });
  const { planId, crypto, hasPromo, promoInput } = useWatch({ control: form.control });
  const { errors } = form.formState;
  const fieldError = (field: keyof PurchaseFields) => {
    const key = errors[field]?.message;
    return key ? t(key as PurchaseErrorKey) : null;
  };

  const plan = plans.data?.find((p) => p.id === (planId ?? plans.data[0]?.id)) ?? null;
  const draft = {
    planId: plan?.id ?? null,
    crypto: crypto || null,
    hasPromo: hasPromo ?? false,
    promoInput: promoInput ?? '',
    applied,
  };

  const apply = useMutation({
    mutationFn: (code: string) => checkPromo(code),
    onMutate: () => {
      setApplied(null);
      setPromoMessage(null);
      // The answer replaces "apply the code first".
      form.clearErrors('promoInput');
    },
    onSuccess: (answer, code) => {
      if (!answer.error && answer.code) setApplied({ code: answer.code.code, rate: answer.code.rate });
      setPromoMessage({
        text: answer.error
          ? t(codeKey(answer.errorCode))
          : t('membership.promo.applied', { rate: answer.code?.rate ?? 0 }),
        ok: !answer.error,
        code,
      });
    },
    onError: (e, code) => setPromoMessage({ text: t(errorKey(e)), ok: false, code }),
  });

  const start = useMutation({
    mutationFn: () => startPayment(paymentBody(draft)),
    onSuccess: (answer) => {
      storeUser(answer.user);
      setStarted(answer);
      step.toPay();
    },
    // A refused code (used meanwhile, held by another payment) goes under its field, no longer applied.
    onError: (e) => {
      if (!isPromoRefusal(e)) return;
      setApplied(null);
      setPromoMessage({ text: t(errorKey(e)), ok: false, code: normalisePromo(draft.promoInput) });
    },
  });
  const submit = form.handleSubmit(() => start.mutate());

  if (started && step.paying) {
    return (
      <PaymentStep
        started={started}
        title={title}
        onBack={step.toChoice}
        onAnother={() => {
          setStarted(null);
          setApplied(null);
          form.reset();
          setPromoMessage(null);
          step.toChoice();
        }}
      />
    );
  }

  const cryptoField = form.register('crypto');
  // Unticking the box answers "apply the code first" too.
  const hasPromoField = form.register('hasPromo', { deps: 'promoInput' });
  const promoField = form.register('promoInput');
  const showApplied = draft.hasPromo && promoIsApplied(draft) && applied;
  const promoNote = promoMessage?.code === normalisePromo(draft.promoInput) ? promoMessage : null;
  const planError = fieldError('planId');
  const cryptoError = fieldError('crypto');
  const promoError = fieldError('promoInput');
  const startError = start.isError && !isPromoRefusal(start.error) ? t(errorKey(start.error)) : null;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 py-10">
      <div className="flex flex-col gap-3">
        <h1 id={CHOICE_HEADING} tabIndex={-1} className="text-3xl font-bold text-fg focus:outline-none">
          {title}
        </h1>
        <p className="text-fg-muted">{t('membership.intro')}</p>
        <MembershipStatus {...membership} />
      </div>
      <form
        className="flex flex-col gap-8"
        noValidate
        onSubmit={(e) => void submit(e)}
        // Any change makes the refused request's message stale (its Retry would send something else).
        onChange={() => {
          if (start.isError) start.reset();
        }}
      >
        <fieldset className="flex flex-col gap-3" aria-describedby={planError ? NOTE.plan : undefined}>
          <legend className="mb-3 text-xl font-bold text-fg">{t('membership.plans.title')}</legend>
          {plans.isPending && <PageLoading />}
          {plans.isError && (
            <RetryAlert
              retryLabel={t('membership.retry')}
              message={t('membership.plans.loadFailed')}
              onRetry={() => void plans.refetch()}
              testId="plans-error"
            />
          )}
          <div className="grid gap-3 sm:grid-cols-2">
            {plans.data?.map((p) => (
              <label
                key={p.id}
                className={`flex cursor-pointer flex-col gap-1 rounded-xl border-2 bg-surface-2 p-4 has-focus-visible:outline-2 has-focus-visible:outline-accent ${plan?.id === p.id ? 'border-accent' : 'border-transparent hover:border-white/10'}`}
                data-testid="plan-option"
              >
                <input
                  type="radio"
                  name="plan"
                  className="sr-only"
                  checked={plan?.id === p.id}
                  onChange={() =>
                    form.setValue('planId', p.id, { shouldValidate: form.formState.isSubmitted })
                  }
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
          <FieldError id={NOTE.plan} text={planError} />
        </fieldset>

        <fieldset className="flex flex-col gap-3">
          <legend className="mb-3 text-xl font-bold text-fg">{t('membership.crypto.title')}</legend>
          <label htmlFor="crypto" className="text-sm font-semibold text-fg">
            {t('membership.crypto.label')}
          </label>
          <select
            id="crypto"
            {...cryptoField}
            className={INPUT}
            data-testid="crypto-select"
            {...describedBy(Boolean(cryptoError), cryptoError && NOTE.crypto)}
          >
            <option value="">{t('membership.crypto.placeholder')}</option>
            {cryptos.data?.map((c) => (
              <option key={c.name} value={c.name}>
                {c.display_name}
              </option>
            ))}
          </select>
          <FieldError id={NOTE.crypto} text={cryptoError} />
          {cryptos.isError && (
            <RetryAlert
              retryLabel={t('membership.retry')}
              message={t('membership.crypto.loadFailed')}
              onRetry={() => void cryptos.refetch()}
              testId="crypto-load-error"
            />
          )}
          {cryptos.data?.length === 0 && (
            <p className="text-sm text-fg-muted">{t('membership.crypto.none')}</p>
          )}
        </fieldset>

        <div className="flex flex-col gap-3">
          <label className="flex min-h-11 items-center gap-3 text-fg">
            <input type="checkbox" {...hasPromoField} className="h-5 w-5 accent-[var(--color-accent)]" />
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
                  {...describedBy(
                    Boolean(promoError) || promoNote?.ok === false,
                    promoError && NOTE.promo,
                    promoNote && NOTE.promoAnswer,
                  )}
                />
                <Button
                  variant="secondary"
                  className="min-h-11 shrink-0"
                  onClick={() => apply.mutate(normalisePromo(draft.promoInput))}
                  disabled={!draft.promoInput.trim() || apply.isPending}
                >
                  {apply.isPending ? t('membership.promo.applying') : t('membership.promo.apply')}
                </Button>
              </div>
              <FieldError id={NOTE.promo} text={promoError} />
              {promoNote && (
                <p
                  id={NOTE.promoAnswer}
                  role={promoNote.ok ? 'status' : 'alert'}
                  className={`text-sm ${promoNote.ok ? 'text-green-300' : 'text-red-300'}`}
                  data-testid={NOTE.promoAnswer}
                >
                  {promoNote.text}
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
        {startError && (
          <RetryAlert
            retryLabel={t('membership.retry')}
            message={startError}
            onRetry={() => void submit()}
            testId="payment-error"
          />
        )}
        <div>
          <Button type="submit" className="min-h-11" disabled={start.isPending || !plans.data}>
            {start.isPending ? t('membership.starting') : t('membership.start')}
          </Button>
        </div>
      </form>
    </div>
  );
}
