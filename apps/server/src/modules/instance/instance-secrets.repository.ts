import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Secrets an instance makes for itself when the operator configures none (the ALTCHA HMAC key). Kept
 * in the database so every process of one instance uses the same value.
 */
export class InstanceSecretsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async getOrCreate(name: string, now: number): Promise<string> {
    await this.db
      .insertInto('instance_secrets')
      .values({ name, value: randomBytes(32).toString('base64url'), created_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('instance_secrets')
      .select('value')
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return row.value;
  }
}
