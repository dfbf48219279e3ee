import { randomInt } from 'node:crypto';
import { type Promo, type PromoCheckResponse } from '@marquee/contract';
import type { PromoRow, PromosRepository } from './promos.repository.ts';

/** The discount (percent) of a promo code whose admin left the rate empty. */
const PROMO_RATE_DEFAULT = 10;

/** An unpaid payment request holds its promo code this long; then another customer may use the code. */
export const PROMO_RESERVATION_MS = 2 * 60 * 60_000;

/** One discount per account and code: a paid payment or a still payable request already has it. */
export const PROMO_ALREADY_USED_MESSAGE =
  'You have already used this promo code: it discounts one payment per account (an unpaid request keeps it for 2 hours)';

/** Codes are typed by people: no 0/O or 1/I. 32^8 ≈ 10^12 codes, so they cannot be found by trying. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;

/** Codes compare case-insensitively and without surrounding spaces. */
export const normalisePromoCode = (code: string) => code.trim().toUpperCase();

function newCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

export function toPromoDto(row: PromoRow, now: number): Promo {
  return {
    code: row.code,
    rate: row.rate,
    isUsed: row.is_used === 1,
    isReserved: row.is_used === 0 && row.reserved_by !== null && (row.reserved_until ?? 0) > now,
    createdAt: new Date(row.created_at).toISOString(),
    usedAt: row.used_at === null ? null : new Date(row.used_at).toISOString(),
  };
}

/** Promo codes: admins create and list them; customers check one before paying (decision 041). */
export class PromosService {
  constructor(
    private readonly promos: PromosRepository,
    private readonly now: () => number,
  ) {}

  async list(): Promise<Promo[]> {
    const now = this.now();
    return (await this.promos.list()).map((row) => toPromoDto(row, now));
  }

  async create(adminId: string, rate: number | '' | null | undefined): Promise<Promo> {
    const row: PromoRow = {
      code: '',
      rate: typeof rate === 'number' ? rate : PROMO_RATE_DEFAULT,
      is_used: 0,
      reserved_by: null,
      reserved_until: null,
      used_by_payment: null,
      used_at: null,
      created_by: adminId,
      created_at: this.now(),
    };
    for (;;) {
      row.code = newCode();
      if (await this.promos.insert(row)) return toPromoDto(row, row.created_at);
    }
  }

  /**
   * The answer of decision 041; a code the caller already used (paid, or on a request still payable) or one
   * held by someone else's unpaid request cannot be applied.
   */
  async check(userId: string, rawCode: string): Promise<PromoCheckResponse> {
    const row = await this.promos.find(normalisePromoCode(rawCode));
    if (!row)
      return { code: null, message: 'promo code not found', error: true, errorCode: 'promo_not_found' };
    const code = { code: row.code, isUsed: row.is_used === 1, rate: row.rate };
    const now = this.now();
    if (code.isUsed)
      return { code, message: 'promo code already used', error: true, errorCode: 'promo_used' };
    if (await this.promos.usedByUser(row.code, userId, now - PROMO_RESERVATION_MS))
      return { code, message: PROMO_ALREADY_USED_MESSAGE, error: true, errorCode: 'promo_already_used' };
    if (await this.heldByOther(row, now)) {
      return {
        code,
        message: 'promo code is being used in another payment',
        error: true,
        errorCode: 'promo_reserved',
      };
    }
    return { code, message: `promo code applied: ${row.rate}% off`, error: false, errorCode: null };
  }

  private async heldByOther(row: PromoRow, now: number): Promise<boolean> {
    if (row.reserved_by === null || (row.reserved_until ?? 0) <= now) return false;
    return !(await this.promos.reservationIsFree(row.reserved_by));
  }
}
