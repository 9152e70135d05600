import type { RequestHandler, Router } from 'express';
import type { CoreDeps } from './deps.js';

export interface Components {
  identifyCaller: RequestHandler;
  rateLimit: RequestHandler;
  routers: Router[];
  /** undefined when Redis is not configured. */
  redisUp?: () => boolean;
  /** Background work (sync jobs) that starts once the server listens. */
  start: () => void;
  stop: () => Promise<void>;
}

/** Wires the business components together; each owns its routes, logic and data. */
export async function createComponents(_deps: CoreDeps): Promise<Components> {
  const pass: RequestHandler = (_req, _res, next) => next();
  return {
    identifyCaller: pass,
    rateLimit: pass,
    routers: [],
    start: () => undefined,
    stop: async () => undefined,
  };
}
