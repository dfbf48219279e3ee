import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Plan } from '@marquee/contract';
import { PageLoading } from '../../components/layout.tsx';
import { RetryAlert } from '../../components/retry-alert.tsx';
import { discountedCost } from '../../lib/plans.ts';
import { FieldError, NOTE } from './purchase-parts.tsx';
import type { AppliedPromo } from './purchase-rules.ts';
import { usePrice } from './use-price.ts';

/** The plans as radio cards (loading, or a load failure with Try again), and the plan's error. */
export function PlanChoice({
  plans,
  chosen,
  onChoose,
  error,
}: {
  plans: Pick<UseQueryResult<Plan[]>, 'data' | 'isPending' | 'isError' | 'refetch'>;
  /** The plan shown as chosen (the first until the viewer picks one). */
  chosen: number | null;
  onChoose(planId: number): void;
  /** Translated. */
  error: string | null;
}) {
  const { t } = useTranslation(['membership']);
  const { money, period } = usePrice();
  return (
    <fieldset className="flex flex-col gap-3" aria-describedby={error ? NOTE.plan : undefined}>
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
            className={`flex cursor-pointer flex-col gap-1 rounded-xl border-2 bg-surface-2 p-4 has-focus-visible:outline-2 has-focus-visible:outline-accent ${chosen === p.id ? 'border-accent' : 'border-transparent hover:border-white/10'}`}
            data-testid="plan-option"
          >
            <input
              type="radio"
              name="plan"
              className="sr-only"
              checked={chosen === p.id}
              onChange={() => onChoose(p.id)}
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
      <FieldError id={NOTE.plan} text={error} />
    </fieldset>
  );
}

/** What the chosen plan costs, with the applied code's discount (and the price before it). */
export function PaymentTotal({ plan, discount }: { plan: Plan; discount: AppliedPromo | null }) {
  const { t } = useTranslation(['membership']);
  const { money } = usePrice();
  return (
    <p className="text-lg text-fg" data-testid="payment-total">
      {t('membership.total', {
        price: money(discount ? discountedCost(plan.cost, discount.rate) : plan.cost, plan.currency),
      })}
      {discount && (
        <span className="ms-2 text-sm text-fg-muted">
          {t('membership.promo.was', { price: money(plan.cost, plan.currency) })}
        </span>
      )}
    </p>
  );
}
