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
   * reservation, from a superseded or failed request, or from another request of the same user.
   */
  async reserve(
    code: string,
    paymentId: string,
    userId: string,
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
          eb(
            'reserved_by',
            'in',
            eb
              .selectFrom('payments')
              .select('id')
              .where((p) => p.or([p('user_id', '=', userId), p('status', 'in', ['superseded', 'failed'])])),
          ),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The same rule as `reserve`: the holding request is the user's own, or superseded, or failed. */
  async reservationIsFreeFor(paymentId: string, userId: string): Promise<boolean> {
    const holder = await this.db
      .selectFrom('payments')
      .select(['user_id', 'status'])
      .where('id', '=', paymentId)
      .executeTakeFirst();
    return (
      !holder || holder.user_id === userId || holder.status === 'superseded' || holder.status === 'failed'
    );
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
   * Marks the code used by a paid payment, once: only if unused and held by this payment (or by no live
   * reservation). False when someone else got it first.
   */
  async consume(code: string, paymentId: string, now: number, trx: Kysely<Database>): Promise<boolean> {
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
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
