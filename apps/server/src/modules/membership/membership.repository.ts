import type { Kysely } from 'kysely';
import type { Database, PaymentSettlement, PaymentsTable } from '../../db/schema.ts';

export type PaymentRow = PaymentsTable;

/** A reported balance and how it compares with what is due (modules/membership/settlement.ts). */
export interface SettlementRecord {
  balanceFiat: string | null;
  dueFiat: string;
  settlement: PaymentSettlement;
  at: number;
}

const settlementColumns = (record: SettlementRecord) => ({
  balance_fiat: record.balanceFiat,
  due_fiat: record.dueFiat,
  settlement: record.settlement,
  settlement_at: record.at,
});

/** Memberships and payments (SQL only; the rules live in MembershipService). */
export class MembershipRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async endOf(userId: string, trx: Kysely<Database> = this.db): Promise<number | null> {
    const row = await trx
      .selectFrom('memberships')
      .select('ends_at')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? row.ends_at : null;
  }

  async setEnd(userId: string, endsAt: number, now: number, trx: Kysely<Database>): Promise<void> {
    await trx
      .insertInto('memberships')
      .values({ user_id: userId, ends_at: endsAt, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ ends_at: endsAt, updated_at: now }))
      .execute();
  }

  /** When the user's newest payment request was made (requests are ordered by it). */
  async latestCreatedAt(userId: string, trx: Kysely<Database>): Promise<number | null> {
    const row = await trx
      .selectFrom('payments')
      .select((eb) => eb.fn.max('created_at').as('latest'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.latest == null ? null : Number(row.latest);
  }

  async insertPayment(row: PaymentRow, trx: Kysely<Database> = this.db): Promise<void> {
    await trx.insertInto('payments').values(row).execute();
  }

  findPayment(id: string, trx: Kysely<Database> = this.db): Promise<PaymentRow | undefined> {
    return trx.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The newest payment request still waiting to be paid (the one whose QR code counts). */
  latestPending(userId: string): Promise<PaymentRow | undefined> {
    return this.db
      .selectFrom('payments')
      .selectAll()
      .where('user_id', '=', userId)
      .where('status', '=', 'pending')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async setInvoice(
    id: string,
    invoice: {
      wallet: string;
      crypto_amount: string | null;
      crypto_display_name: string;
      gateway_invoice_id: string | null;
    },
    trx: Kysely<Database> = this.db,
  ): Promise<void> {
    await trx.updateTable('payments').set(invoice).where('id', '=', id).execute();
  }

  async markFailed(id: string): Promise<void> {
    await this.db
      .updateTable('payments')
      .set({ status: 'failed' })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  }

  /**
   * Marks the user's pending requests made before `payment` superseded (newest wins, by creation time then
   * id, so two requests finishing at once never supersede each other); returns their ids.
   */
  async supersedeOlder(
    payment: Pick<PaymentRow, 'id' | 'user_id' | 'created_at'>,
    trx: Kysely<Database>,
  ): Promise<string[]> {
    const rows = await trx
      .updateTable('payments')
      .set({ status: 'superseded' })
      .where('user_id', '=', payment.user_id)
      .where('status', '=', 'pending')
      .where('id', '!=', payment.id)
      .where((eb) =>
        eb.or([
          eb('created_at', '<', payment.created_at),
          eb.and([eb('created_at', '=', payment.created_at), eb('id', '<', payment.id)]),
        ]),
      )
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * pending/superseded → paid, once: of any number of concurrent callbacks for one invoice exactly one
   * sees an affected row (PostgreSQL re-checks the condition after the row lock; SQLite serialises).
   */
  async markPaid(id: string, record: SettlementRecord, trx: Kysely<Database>): Promise<boolean> {
    const result = await trx
      .updateTable('payments')
      .set({ status: 'paid', paid_at: record.at, ...settlementColumns(record) })
      .where('id', '=', id)
      .where('status', 'in', ['pending', 'superseded'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * The balance of a notification that did not (or no longer could) mark the payment paid: a partial or
   * underpaid one on an unpaid request, or a later transaction on a paid one (an overpayment).
   */
  async recordSettlement(
    id: string,
    record: SettlementRecord,
    paid: boolean,
    trx: Kysely<Database> = this.db,
  ): Promise<void> {
    await trx
      .updateTable('payments')
      .set(settlementColumns(record))
      .where('id', '=', id)
      .where('status', paid ? '=' : '!=', 'paid')
      .execute();
  }

  /** Payments for the admins, newest first, with the payer's email; `settlements` filters by how they were paid. */
  listForAdmin(options: {
    settlements?: PaymentSettlement[];
    limit: number;
  }): Promise<(PaymentRow & { email: string | null })[]> {
    let query = this.db
      .selectFrom('payments')
      .innerJoin('users', 'users.id', 'payments.user_id')
      .selectAll('payments')
      .select('users.email')
      .orderBy('payments.created_at', 'desc')
      .orderBy('payments.id', 'desc')
      .limit(options.limit);
    if (options.settlements) query = query.where('payments.settlement', 'in', options.settlements);
    return query.execute();
  }
}
