import type { Plan } from '@marquee/contract';
import type { PlanConfig } from '../../config.ts';

const cents = (amount: number) => Math.round(amount * 100);

/** The configured plans as the API shows them (prices never hard-coded anywhere else). */
export function plansOf(configured: readonly PlanConfig[], currency: string): Plan[] {
  return configured.map((p) => ({
    id: p.id,
    duration: p.duration,
    cost: p.cost,
    pref: p.pref ?? (p.duration % 12 === 0 ? 'year' : 'month'),
    currency,
    monthlyCost: Math.round(cents(p.cost) / p.duration) / 100,
  }));
}

/** Price after a promo discount of `rate` percent, as decimal text with two places ("27.00"). */
export function discountedAmount(cost: number, rate: number): string {
  const due = Math.round((cents(cost) * (100 - rate)) / 100);
  return (due / 100).toFixed(2);
}

/** `months` calendar months after `ms` (UTC; the 31st becomes the last day of a shorter month). */
export function addMonths(ms: number, months: number): number {
  const date = new Date(ms);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}
