import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { startupFailure } from '../startup-failure.ts';

/**
 * Runs an operator command when its module is the entry point (`node dist/<name>.js`, or
 * `npm run <name>` through scripts/start.mjs), with the server's own configuration: a bad setting exits
 * 2 with the server's message, a failure exits 1 with one readable sentence. `moduleUrl` is the entry
 * module's `import.meta.url` (in the bundle, this helper may sit in a shared chunk).
 */
export function runAsCommand(moduleUrl: string, command: (config: Config) => Promise<number>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  let config: Config | undefined;
  const run = async () => {
    config = loadConfig();
    process.exitCode = await command(config);
  };
  run().catch((error: unknown) => {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exitCode = 2;
      return;
    }
    console.error(startupFailure(error, config));
    process.exitCode = 1;
  });
}

/** Where the configured database is, for people: never the password. */
export function describeDatabase(
  config: Pick<Config, 'DATABASE_URL' | 'dataDir'>,
  sqliteFile: string,
): string {
  if (!config.DATABASE_URL) return `SQLite ${sqliteFile}`;
  const url = new URL(config.DATABASE_URL);
  return `PostgreSQL ${url.host}${url.pathname}`;
}
