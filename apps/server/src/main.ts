import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const { server, metadata } = await buildApp(config);
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) server.log.error({ err }, 'shutting down after an error');
    else server.log.info({ signal }, 'shutting down');
    await server.close();
  });
  await server.listen({ port: config.PORT, host: config.HOST });
  server.log.info(
    { metadata: metadata.source, database: config.DATABASE_URL ? 'postgres' : 'sqlite', dataDir: config.dataDir },
    `Marquee is ready on http://localhost:${config.PORT}`,
  );
}

void main();
