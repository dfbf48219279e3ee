import { describe, expect, it } from 'vitest';
import { parsePromoRate } from './promo-rules.ts';

describe('new promo rate', () => {
  it('empty is ignored (the server default, 10); numbers are sent as integers', () => {
    expect(parsePromoRate('')).toEqual({ rate: undefined });
    expect(parsePromoRate('  ')).toEqual({ rate: undefined });
    expect(parsePromoRate('25')).toEqual({ rate: 25 });
    expect(parsePromoRate('12.7')).toEqual({ rate: 12 });
  });
  it('refuses what is not a rate of 1 to 100', () => {
    expect(parsePromoRate('abc')).toEqual({ error: 'rateInvalid' });
    expect(parsePromoRate('0')).toEqual({ error: 'rateInvalid' });
    expect(parsePromoRate('101')).toEqual({ error: 'rateInvalid' });
  });
});
