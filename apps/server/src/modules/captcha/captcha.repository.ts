import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export class CaptchaSolutionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records a solved challenge; false if it was already used (replay), shared by every process. */
  async markUsed(id: string, expiresAt: number): Promise<boolean> {
    const row = await this.db
      .insertInto('captcha_solutions')
      .values({ id, expires_at: expiresAt })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async deleteExpired(now: number): Promise<number> {
    const result = await this.db
      .deleteFrom('captcha_solutions')
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
