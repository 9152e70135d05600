import { ownResponse, type OperationEntry } from './operations.js';
import type { components } from '../../generated/api.js';

type Readiness = components['schemas']['Readiness'];

export interface ReadinessProbes {
  database: () => Promise<boolean>;
  /** undefined when Redis is not configured. */
  redis?: () => boolean;
}

/** Outside the rate limits: load balancers poll these. */
export function healthOperations(probes: ReadinessProbes): OperationEntry[] {
  return [
    ownResponse('getHealth', (_req, res) => {
      res.json({ status: 'ok' });
    }),
    ownResponse('getReadiness', async (_req, res) => {
      const database = (await probes.database()) ? 'up' : 'down';
      const redis = probes.redis ? (probes.redis() ? 'up' : 'down') : 'not-configured';
      // Redis down is degraded, not unready: requests are still served with per-process counting.
      const status: Readiness['status'] = database === 'down' ? 'unavailable' : redis === 'down' ? 'degraded' : 'ok';
      const body: Readiness = { status, checks: { database, redis } };
      res.status(database === 'up' ? 200 : 503).json(body);
    }),
  ];
}
