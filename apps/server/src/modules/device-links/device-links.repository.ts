import type { Kysely } from 'kysely';
import type { Database, DeviceLinksTable } from '../../db/schema.ts';

export type DeviceLinkRow = DeviceLinksTable;

/** Sign-in codes of new devices (SQL only; the rules live in DeviceLinksService). */
export class DeviceLinksRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** False when the code is held by another link (the caller draws another code). */
  async insert(row: DeviceLinkRow, now: number): Promise<boolean> {
    // An expired link no longer holds its code.
    await this.db
      .deleteFrom('device_links')
      .where('code_hash', '=', row.code_hash)
      .where('expires_at', '<=', now)
      .execute();
    const inserted = await this.db
      .insertInto('device_links')
      .values(row)
      .onConflict((oc) => oc.column('code_hash').doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  find(id: string): Promise<DeviceLinkRow | undefined> {
    return this.db.selectFrom('device_links').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A live, still pending link by its code. */
  findPending(codeHash: string, now: number): Promise<DeviceLinkRow | undefined> {
    return this.db
      .selectFrom('device_links')
      .selectAll()
      .where('code_hash', '=', codeHash)
      .where('expires_at', '>', now)
      .where('approved_by', 'is', null)
      .executeTakeFirst();
  }

  /** Approves a live pending link; false when it was approved meanwhile, or ended. */
  async approve(id: string, userId: string, now: number, sealed: string | null = null): Promise<boolean> {
    const result = await this.db
      .updateTable('device_links')
      .set({ approved_by: userId, sealed })
      .where('id', '=', id)
      .where('approved_by', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Removes and returns the link in one statement: of two concurrent pick-ups, only one gets it. */
  take(id: string): Promise<DeviceLinkRow | undefined> {
    return this.db.deleteFrom('device_links').where('id', '=', id).returningAll().executeTakeFirst();
  }

  async deleteExpired(now: number): Promise<number> {
    const result = await this.db.deleteFrom('device_links').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
