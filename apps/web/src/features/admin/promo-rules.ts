import { PROMO_RATE_MAX, PROMO_RATE_MIN } from '@marquee/contract/values';

/**
 * The new promo rate: a number, sent as an integer; empty means the server's default (10).
 * Answers `{rate}` (undefined = leave it to the default) or `{error}` with a catalog key.
 */
export type PromoRateError = 'rateInvalid';

export function parsePromoRate(text: string): { rate: number | undefined } | { error: PromoRateError } {
  const trimmed = text.trim();
  if (trimmed === '') return { rate: undefined };
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { error: 'rateInvalid' };
  const rate = Math.trunc(value);
  if (rate < PROMO_RATE_MIN || rate > PROMO_RATE_MAX) return { error: 'rateInvalid' };
  return { rate };
}
