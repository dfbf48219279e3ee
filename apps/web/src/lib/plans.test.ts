import { describe, expect, it } from 'vitest';
import type { Plan } from '@marquee/contract';
import { cheapestPlan, discountedCost, formatMoney, planPeriod } from './plans.ts';

const yearly: Plan = { id: 1, duration: 12, cost: 30, pref: 'year', currency: 'USD', monthlyCost: 2.5 };
const monthly: Plan = { id: 2, duration: 1, cost: 2.99, pref: 'month', currency: 'USD', monthlyCost: 2.99 };

describe('plan prices', () => {
  it('formats whole amounts without cents and others with two decimals', () => {
    expect(formatMoney(30, 'USD')).toBe('$30');
    expect(formatMoney(2.99, 'USD')).toBe('$2.99');
    expect(formatMoney(2.5, 'USD')).toBe('$2.50');
    expect(formatMoney(2.99, 'EUR', 'de').replace(/\s/g, ' ')).toBe('2,99 €');
    expect(formatMoney(5, 'NOT-A-CODE')).toBe('5 NOT-A-CODE');
  });
  it('quotes a plan per its period (the default plans: $30 per year, $2.99 per month)', () => {
    expect(planPeriod(yearly)).toEqual({ unit: 'year', count: 1 });
    expect(planPeriod(monthly)).toEqual({ unit: 'month', count: 1 });
    expect(planPeriod({ duration: 24, pref: 'year' })).toEqual({ unit: 'year', count: 2 });
    expect(planPeriod({ duration: 3, pref: 'month' })).toEqual({ unit: 'month', count: 3 });
    expect(planPeriod({ duration: 18, pref: 'year' })).toEqual({ unit: 'month', count: 18 });
  });
  it('the banner advertises the lowest monthly price of the configured plans', () => {
    expect(cheapestPlan([monthly, yearly])).toBe(yearly);
    expect(cheapestPlan([])).toBeUndefined();
  });
  it('discounts as the server does, to the cent', () => {
    expect(discountedCost(30, 10)).toBe(27);
    expect(discountedCost(2.99, 10)).toBe(2.69);
    expect(discountedCost(2.99, 100)).toBe(0);
  });
});
