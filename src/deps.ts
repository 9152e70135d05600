import type { Config } from './config.js';
import type { Db } from './platform/db.js';
import type { Logger } from './platform/logger.js';

/** What every component is built from; passed down explicitly, never imported as globals. */
export interface CoreDeps {
  readonly config: Config;
  readonly db: Db;
  readonly logger: Logger;
}
