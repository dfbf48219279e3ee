import type { Kysely } from 'kysely';

/*
 * Signing in with a code for passphrase accounts (decision 107): `public_key` is the new device's one-time
 * X25519 key (base64url), `sealed` the account's seed sealed to it by the approving device (JSON of
 * `SealedSeed`), relayed once to the new device; the server cannot open it.
 */
// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('device_links').addColumn('public_key', 'varchar(64)').execute();
  await db.schema.alterTable('device_links').addColumn('sealed', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('device_links').dropColumn('sealed').execute();
  await db.schema.alterTable('device_links').dropColumn('public_key').execute();
}
