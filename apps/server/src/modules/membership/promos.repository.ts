import type { Kysely } from 'kysely';
import type { Database, PromoCodesTable } from '../../db/schema.ts';

export type PromoRow = PromoCodesTable;

/**
 * Promo codes. Reserving and consuming are single conditional UPDATEs whose affected-row count says
 * who won, so concurrent requests for one code (any number of processes) produce exactly one winner.
 */
export class PromosRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** False when the code already exists. */
  async insert(row: PromoRow): Promise<boolean> {
    const inserted = await this.db
      .insertInto('promo_codes')
      .values(row)
      .onConflict((oc) => oc.column('code').doNothing())
      .returning('code')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  list(): Promise<PromoRow[]> {
    return this.db
      .selectFrom('promo_codes')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('code')
      .execute();
  }

  find(code: string, trx: Kysely<Database> = this.db): Promise<PromoRow | undefined> {
    return trx.selectFrom('promo_codes').selectAll().where('code', '=', code).executeTakeFirst();
  }

  /**
   * Holds an unused code for `paymentId` until `until`. It may take the code over from an expired
   * reservation or from a failed request (no invoice: nothing can be paid). A superseded request keeps
   * its code: money arriving for it is still honoured (decision 073).
   */
  async reserve(
    code: string,
    paymentId: string,
    now: number,
    until: number,
    trx: Kysely<Database>,
  ): Promise<boolean> {
    const result = await trx
      .updateTable('promo_codes')
      .set({ reserved_by: paymentId, reserved_until: until })
      .where('code', '=', code)
      .where('is_used', '=', 0)
      .where((eb) =>
        eb.or([
          eb('reserved_by', 'is', null),
          eb('reserved_until', '<=', now),
          eb('reserved_by', 'in', eb.selectFrom('payments').select('id').where('status', '=', 'failed')),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The same rule as `reserve`: a reservation held by a failed request is free. */
  async reservationIsFree(paymentId: string): Promise<boolean> {
    const holder = await this.db
      .selectFrom('payments')
      .select('status')
      .where('id', '=', paymentId)
      .executeTakeFirst();
    return !holder || holder.status === 'failed';
  }

  /**
   * The user's own use of `code`: a paid payment with it, or an unpaid request with it (pending or
   * superseded, so still payable) made since `since` (its reservation has not lapsed). One user gets one
   * discount per code (decision 073).
   */
  usedByUser(
    code: string,
    userId: string,
    since: number,
    trx: Kysely<Database> = this.db,
  ): Promise<{ id: string; status: string } | undefined> {
    return trx
      .selectFrom('payments')
      .select(['id', 'status'])
      .where('user_id', '=', userId)
      .where('promo_code', '=', code)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'paid'),
          eb.and([eb('status', 'in', ['pending', 'superseded']), eb('created_at', '>', since)]),
        ]),
      )
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Who consumed a used code (the payment and its payer). */
  consumer(code: string, trx: Kysely<Database>): Promise<{ id: string; user_id: string } | undefined> {
    return trx
      .selectFrom('promo_codes')
      .innerJoin('payments', 'payments.id', 'promo_codes.used_by_payment')
      .select(['payments.id', 'payments.user_id'])
      .where('promo_codes.code', '=', code)
      .executeTakeFirst();
  }

  async release(paymentIds: string[], trx: Kysely<Database> = this.db): Promise<void> {
    if (paymentIds.length === 0) return;
    await trx
      .updateTable('promo_codes')
      .set({ reserved_by: null, reserved_until: null })
      .where('reserved_by', 'in', paymentIds)
      .where('is_used', '=', 0)
      .execute();
  }

  /**
   * Marks the code used by a paid payment, once: only if unused and held by this payment, by no live
   * reservation, or by another request of the same payer (whose discount then no longer holds). False
   * when someone else got it first.
   */
  async consume(
    code: string,
    paymentId: string,
    userId: string,
    now: number,
    trx: Kysely<Database>,
  ): Promise<boolean> {
    const result = await trx
      .updateTable('promo_codes')
      .set({ is_used: 1, used_by_payment: paymentId, used_at: now, reserved_by: null, reserved_until: null })
      .where('code', '=', code)
      .where('is_used', '=', 0)
      .where((eb) =>
        eb.or([
          eb('reserved_by', '=', paymentId),
          eb('reserved_by', 'is', null),
          eb('reserved_until', '<=', now),
          eb('reserved_by', 'in', eb.selectFrom('payments').select('id').where('user_id', '=', userId)),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
