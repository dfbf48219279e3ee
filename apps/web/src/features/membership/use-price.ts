import type { Plan } from '@marquee/contract';
import { useTranslation } from 'react-i18next';
import { formatMoney, planPeriod } from '../../lib/plans.ts';

/** Prices in the viewer's language: an amount, and a plan's period ("per year", "per 3 months"). */
export function usePrice() {
  const { t, i18n } = useTranslation(['membership']);
  return {
    money: (amount: number, currency: string) => formatMoney(amount, currency, i18n.language),
    period: (plan: Plan) => {
      const { unit, count } = planPeriod(plan);
      return t(unit === 'year' ? 'membership.plans.perYear' : 'membership.plans.perMonth', { count });
    },
  };
}
