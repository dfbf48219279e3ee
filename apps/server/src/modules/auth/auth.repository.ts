import type { Kysely } from 'kysely';
import type { AuthChallengesTable, Database } from '../../db/schema.ts';

export type ChallengeRow = AuthChallengesTable;

export class ChallengesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: ChallengeRow): Promise<void> {
    await this.db.insertInto('auth_challenges').values(row).execute();
  }

  /** Removes and returns the challenge in one statement: of two concurrent uses, only one gets it. */
  consume(code: string): Promise<ChallengeRow | undefined> {
    return this.db.deleteFrom('auth_challenges').where('code', '=', code).returningAll().executeTakeFirst();
  }

  async deleteExpired(now: number): Promise<number> {
    const result = await this.db
      .deleteFrom('auth_challenges')
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
