import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { startupFailure } from './startup-failure.ts';

async function main(): Promise<void> {
  let config: Config | undefined;
  try {
    config = loadConfig();
    const { server, metadata } = await buildApp(config);
    closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
      if (err) server.log.error({ err }, 'shutting down after an error');
      else server.log.info({ signal }, 'shutting down');
      await server.close();
    });
    await server.listen({ port: config.PORT, host: config.HOST });
    server.log.info(
      {
        metadata: metadata.source,
        database: config.DATABASE_URL ? 'postgres' : 'sqlite',
        dataDir: config.dataDir,
      },
      `Marquee is ready on http://localhost:${config.PORT}`,
    );
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    console.error(`Marquee could not start: ${startupFailure(error, config)}`);
    if (config?.LOG_LEVEL === 'debug' || config?.LOG_LEVEL === 'trace') console.error(error);
    process.exit(1);
  }
}

void main();
