import type { Plan } from '@marquee/contract';
import { numberFormat } from './intl.ts';

/**
 * How membership prices read on screen. Prices always come from the server's plans (GET /api/plans),
 * never from text (decision 042); these only format them.
 */

/** "$30", "$2.99", "2,99 €": whole amounts without cents, others with two decimals. */
export function formatMoney(amount: number, currency: string, locale = 'en'): string {
  const whole = Number.isInteger(amount);
  try {
    return numberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: whole ? 0 : 2,
      maximumFractionDigits: whole ? 0 : 2,
    }).format(amount);
  } catch {
    // An unknown currency code: the number and the code.
    return `${whole ? amount : amount.toFixed(2)} ${currency}`;
  }
}

/** The period a plan's price is quoted per: "per year" (12 months, pref year), "per 2 years", "per month", "per 3 months". */
export function planPeriod(plan: Pick<Plan, 'duration' | 'pref'>): { unit: 'month' | 'year'; count: number } {
  if (plan.pref === 'year' && plan.duration % 12 === 0) return { unit: 'year', count: plan.duration / 12 };
  return { unit: 'month', count: plan.duration };
}

/** The plan with the lowest price per month (what "from $x a month" advertises); undefined without plans. */
export function cheapestPlan(plans: readonly Plan[]): Plan | undefined {
  return plans.reduce<Plan | undefined>(
    (best, p) => (!best || p.monthlyCost < best.monthlyCost ? p : best),
    undefined,
  );
}

/** The price after a promo discount of `rate` percent, rounded to cents as the server rounds it. */
export function discountedCost(cost: number, rate: number): number {
  const cents = Math.round(cost * 100);
  return Math.round((cents * (100 - rate)) / 100) / 100;
}
