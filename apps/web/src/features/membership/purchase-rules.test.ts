import { describe, expect, it } from 'vitest';
import { checkPurchase, paymentBody, promoIsApplied, type PurchaseDraft } from './purchase-rules.ts';

import membership from '../../locales/en/membership.json';

const en = { membership };
const base: PurchaseDraft = { planId: 1, crypto: 'BTC', hasPromo: false, promoInput: '', applied: null };

describe('membership purchase rules', () => {
  it('a ticked "I have promo code" needs the code applied first', () => {
    expect(checkPurchase({ ...base, hasPromo: true, promoInput: 'ABCD2345' })).toEqual(['applyPromoFirst']);
    expect(en.membership.errors.applyPromoFirst).toBe('You should apply promo code before');
    expect(
      checkPurchase({
        ...base,
        hasPromo: true,
        promoInput: 'abcd2345 ',
        applied: { code: 'ABCD2345', rate: 10 },
      }),
    ).toEqual([]);
  });
  it('editing the code after Apply needs another Apply', () => {
    const draft = {
      ...base,
      hasPromo: true,
      promoInput: 'ABCD2346',
      applied: { code: 'ABCD2345', rate: 10 },
    };
    expect(promoIsApplied(draft)).toBe(false);
    expect(checkPurchase(draft)).toEqual(['applyPromoFirst']);
  });
  it('a crypto choice is needed', () => {
    expect(checkPurchase({ ...base, crypto: null })).toEqual(['cryptoRequired']);
    expect(en.membership.errors.cryptoRequired).toBe(
      'You have to select the cripto before starting payment process.',
    );
    expect(en.membership.errors.promoUsed).toBe('promo code already used');
  });
  it('every problem at once, so each field shows its own', () => {
    expect(checkPurchase({ ...base, planId: null, crypto: null, hasPromo: true, promoInput: 'X' })).toEqual([
      'planRequired',
      'applyPromoFirst',
      'cryptoRequired',
    ]);
  });
  it('the body: planId, criptoName, and the applied code or null', () => {
    expect(paymentBody(base)).toEqual({ planId: 1, criptoName: 'BTC', code: null });
    expect(
      paymentBody({
        ...base,
        hasPromo: true,
        promoInput: 'abcd2345',
        applied: { code: 'ABCD2345', rate: 25 },
      }),
    ).toEqual({ planId: 1, criptoName: 'BTC', code: 'ABCD2345' });
    // Unticked after applying: no code is sent.
    expect(
      paymentBody({ ...base, hasPromo: false, applied: { code: 'ABCD2345', rate: 25 } }).code,
    ).toBeNull();
  });
});
