import type { Kysely } from 'kysely';

/*
 * Passkeys (decision 109): a WebAuthn credential of an account, by its id (base64url, as the browser
 * gives it), with its public key (COSE, base64url) and signature counter, its name (sealed for a
 * passphrase account) and, for a passphrase account, the seed wrapped by the passkey's PRF output
 * (JSON {iv, ciphertext}; only the authenticator can open it). It goes with its account.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'varchar(1366)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('wrapped_seed', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('passkeys').execute();
}
