import type { Resolver } from 'react-hook-form';
import { ApiError } from '../../lib/api/index.ts';
import { checkPurchase, type AppliedPromo, type PurchaseError } from './purchase-rules.ts';

/** What the viewer picks on the choice step (the form). */
export interface PurchaseFields {
  planId: number | null;
  crypto: string;
  hasPromo: boolean;
  promoInput: string;
}

export interface PurchaseContext {
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
export type PurchaseErrorKey = `membership.errors.${PurchaseError}`;

/** The purchase rules (purchase-rules.ts) as the form's resolver: every problem, each on its field. */
export const purchaseResolver: Resolver<PurchaseFields, PurchaseContext> = (values, context) => {
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
export const isPromoRefusal = (e: unknown) => e instanceof ApiError && e.code.startsWith('promo_');

/** What the promo check (or the payment request) answered about one code. */
export interface PromoMessage {
  text: string;
  ok: boolean;
  /** The code it is about, normalised: once the field says something else, the message is stale. */
  code: string;
}
