import type { Knex } from 'knex';
import * as initial from './001-initial.js';
import * as connectors from './004-connectors.js';
import * as oauth from './005-oauth.js';
import * as apiTokenOrigin from './006-api-token-origin.js';
import * as oauthDeviceCodes from './007-oauth-device-codes.js';
import * as oauthResource from './008-oauth-resource.js';
import * as taskChanges from './009-task-changes.js';
import * as webhooks from './010-webhooks.js';
import * as tombstonesKeyed from './011-tombstones-keyed.js';
import * as tombstonesWithoutAgeIndex from './012-tombstones-without-age-index.js';
import * as taskTitlePrefix from './013-task-title-prefix.js';
import * as findingTasks from './014-finding-tasks.js';
import * as taskSearchTexts from './015-task-search-texts.js';
import * as taskSearchTerms from './016-task-search-terms.js';
import * as taskSearchTextsExact from './017-task-search-texts-exact.js';

type Migration = { up: (db: Knex) => Promise<void>; down: (db: Knex) => Promise<void> };

const all: Record<string, Migration> = {
  '001-initial': initial,
  '004-connectors': connectors,
  '005-oauth': oauth,
  '006-api-token-origin': apiTokenOrigin,
  '007-oauth-device-codes': oauthDeviceCodes,
  '008-oauth-resource': oauthResource,
  '009-task-changes': taskChanges,
  '010-webhooks': webhooks,
  '011-tombstones-keyed': tombstonesKeyed,
  '012-tombstones-without-age-index': tombstonesWithoutAgeIndex,
  '013-task-title-prefix': taskTitlePrefix,
  '014-finding-tasks': findingTasks,
  '015-task-search-texts': taskSearchTexts,
  '016-task-search-terms': taskSearchTerms,
  '017-task-search-texts-exact': taskSearchTextsExact,
};

/** Migrations compiled in, so they run the same from src/ under tsx and from dist/. */
export const migrations: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(all).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => all[name] as Migration,
};
