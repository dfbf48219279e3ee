/**
 * Client rules of the membership purchase, checked before anything is sent.
 * Problems are named by their catalog key under `membership.errors`.
 */
export interface AppliedPromo {
  code: string;
  rate: number;
}

export interface PurchaseDraft {
  planId: number | null;
  crypto: string | null;
  /** "I have promo code" is ticked. */
  hasPromo: boolean;
  /** What is typed in the promo field now. */
  promoInput: string;
  /** The code the server accepted with "Apply", if any. */
  applied: AppliedPromo | null;
}

export type PurchaseError = 'planRequired' | 'applyPromoFirst' | 'cryptoRequired';

/** Codes compare as the server compares them: trimmed, case-insensitive. */
export const normalisePromo = (code: string) => code.trim().toUpperCase();

/** The applied promo still matches what is typed (editing the field after Apply needs another Apply). */
export const promoIsApplied = (d: Pick<PurchaseDraft, 'promoInput' | 'applied'>) =>
  d.applied !== null && d.applied.code === normalisePromo(d.promoInput);

/** Every problem of the draft at once (each shows under its own field); empty when it can be sent. */
export function checkPurchase(d: PurchaseDraft): PurchaseError[] {
  const problems: PurchaseError[] = [];
  if (d.planId === null) problems.push('planRequired');
  // 'I have promo code' ticked: the code must be applied first.
  if (d.hasPromo && !promoIsApplied(d)) problems.push('applyPromoFirst');
  if (!d.crypto) problems.push('cryptoRequired');
  return problems;
}

/** POST /customers/:uid/suscription's body (spelled `criptoName` as the older client does; `code` null without a promo). */
export function paymentBody(d: PurchaseDraft): { planId: number; criptoName: string; code: string | null } {
  return { planId: d.planId!, criptoName: d.crypto!, code: d.hasPromo && d.applied ? d.applied.code : null };
}
