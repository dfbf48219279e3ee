import { pathToFileURL } from 'node:url';
import type { Kysely } from 'kysely';
import { loadConfig } from '../config.ts';
import { migrateToLatest, openDatabase } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { ADMIN_ROLE, normaliseEmail, parseRoles, withRole } from '../modules/customers/roles.ts';

/*
 * Operator command: npm run admin -- grant <email|user id> | revoke <email|user id> | list
 * Uses the same configuration as the server (DATABASE_URL or DATA_DIR), so run it where the server runs.
 */

const USAGE = 'usage: npm run admin -- grant <email|user id> | revoke <email|user id> | list';

export async function runAdminCommand(
  args: string[],
  db: Kysely<Database>,
  out: (line: string) => void,
): Promise<number> {
  const [command, who] = args;
  if (command === 'list') {
    const users = await db.selectFrom('users').select(['id', 'email', 'roles']).execute();
    const admins = users.filter((u) => parseRoles(u.roles).includes(ADMIN_ROLE));
    if (admins.length === 0)
      out('no admins (ADMIN_EMAILS makes listed email accounts admins when they register or sign in)');
    for (const u of admins) out(`${u.id}\t${u.email ?? '(passphrase account)'}`);
    return 0;
  }
  if ((command !== 'grant' && command !== 'revoke') || !who) {
    out(USAGE);
    return 2;
  }
  // Emails identify email accounts; anything else is a user id (passphrase accounts have no email).
  const query = db.selectFrom('users').select(['id', 'email', 'roles']);
  const user = await (
    who.includes('@') ? query.where('email', '=', normaliseEmail(who)) : query.where('id', '=', who)
  ).executeTakeFirst();
  if (!user) {
    out(`no account ${who}${who.includes('@') ? ' (the person must register first)' : ''}`);
    return 1;
  }
  const roles = parseRoles(user.roles);
  const next = withRole(roles, ADMIN_ROLE, command === 'grant');
  await db
    .updateTable('users')
    .set({ roles: JSON.stringify(next) })
    .where('id', '=', user.id)
    .execute();
  const label = user.email ?? user.id;
  if (command === 'grant')
    out(roles.includes(ADMIN_ROLE) ? `${label} was already an admin` : `${label} is now an admin`);
  else out(roles.includes(ADMIN_ROLE) ? `${label} is no longer an admin` : `${label} was not an admin`);
  if (command === 'revoke' && user.email)
    out('(if the email is in ADMIN_EMAILS, remove it there too, or the next sign-in grants it again)');
  return 0;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  try {
    await migrateToLatest(database.db);
    process.exitCode = await runAdminCommand(process.argv.slice(2), database.db, (line) => console.log(line));
  } finally {
    await database.destroy();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
