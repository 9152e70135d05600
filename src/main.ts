import type { AddressInfo } from 'node:net';
import { createDrain } from './http/drain.js';
import { createHttpServer } from './http/http-server.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { closeDb } from './platform/db.js';
import { createLogger } from './platform/logger.js';
import { createService } from './wiring.js';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.LOG_LEVEL);
  const { app, db, components } = await createService(config, logger);

  const server = createHttpServer(app, config).listen(config.PORT, config.HOST, () => {
    const { port } = server.address() as AddressInfo;
    logger.info(
      { port, host: config.HOST, database: config.database.client, redis: Boolean(config.REDIS_URL), responsesValidated: config.OPENAPI_VALIDATE_RESPONSES },
      `listening on port ${port}`,
    );
    components.start();
  });
  server.keepAliveTimeout = 65_000;
  const { drain } = createDrain(server);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: new connections refused, requests in flight finishing');
    void drain()
      .then(() => components.stop())
      .then(() => closeDb(db))
      .finally(() => process.exit(0));
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`Start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
