import { Router } from 'express';
import type { components } from '../../generated/api.js';
import type { CoreDeps } from '../deps.js';

type ConnectorType = components['schemas']['ConnectorType'];

export interface ConnectorsComponent {
  /** /connectors, /connector-accounts and /sync-jobs. */
  router: Router;
  /** The per-type cap and what the account uses of it, for every connector type. */
  usage: (accountId: string) => Promise<{ type: ConnectorType; limit: number; used: number }[]>;
  /** Starts the sync-job runner (and recovers jobs a crash left behind). */
  start: () => void;
  /** Stops taking jobs and waits for the running ones to reach a safe point. */
  stop: () => Promise<void>;
}

// Stub until the connectors issue lands.
export function createConnectorsComponent({ config }: CoreDeps): ConnectorsComponent {
  const types: ConnectorType[] = ['github', 'ical'];
  return {
    router: Router(),
    usage: async () => types.map((type) => ({ type, limit: config.CONNECTOR_ACCOUNTS_MAX_PER_TYPE, used: 0 })),
    start: () => undefined,
    stop: async () => undefined,
  };
}
