import type { PaymentSettlement } from '../../db/schema.ts';

/*
 * Does a reported balance cover what is due? Money is decimal text on the wire ("2.99", SHKeeper's
 * "2.989999"); it is compared in millionths, as integers, never as floating-point fractions.
 */

const MICROS = 1_000_000;

/** A shortfall (or excess) up to this share of the amount due counts as exact: 1 %… */
export const TOLERANCE_PERCENT = 1;
/** …and never less than one cent (a 1 % share of a small amount rounds to nothing). */
export const TOLERANCE_MIN_MICROS = 10_000;

/** "27.00" → 27000000; null for anything that is not a plain non-negative decimal. */
export function fiatMicros(value: unknown): number | null {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return null;
  const match = /^\s*(\d{1,12})(?:\.(\d{1,18}))?\s*$/.exec(text);
  if (!match) return null;
  const fraction = (match[2] ?? '').padEnd(6, '0').slice(0, 6);
  return Number(match[1]) * MICROS + Number(fraction);
}

/** 27000000 → "27.00" (rounded to cents). */
export function formatFiat(micros: number): string {
  return (Math.round(micros / 10_000) / 100).toFixed(2);
}

export interface Verdict {
  settlement: PaymentSettlement;
  /** Balance − due, as decimal text ("-2.98", "0.00", "1.50"). */
  difference: string;
}

/** How `balance` compares with `due`, both decimal text; a balance that cannot be read covers nothing. */
export function settle(balance: string | null, due: string): Verdict {
  const dueMicros = fiatMicros(due) ?? 0;
  const balanceMicros = fiatMicros(balance) ?? 0;
  const tolerance = Math.max(TOLERANCE_MIN_MICROS, Math.floor((dueMicros * TOLERANCE_PERCENT) / 100));
  const difference = balanceMicros - dueMicros;
  const sign = difference < 0 ? '-' : '';
  return {
    settlement: difference < -tolerance ? 'underpaid' : difference > tolerance ? 'overpaid' : 'exact',
    difference: `${sign}${formatFiat(Math.abs(difference))}`,
  };
}

/** The price before a promo discount of `rate` % was taken off `amount` (older rows have no list price). */
export function undiscounted(amount: string, rate: number): string {
  const micros = fiatMicros(amount) ?? 0;
  if (rate <= 0 || rate >= 100) return formatFiat(micros);
  return formatFiat((micros * 100) / (100 - rate));
}
