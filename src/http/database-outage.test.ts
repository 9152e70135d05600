import express from 'express';
import { describe, expect, it } from 'vitest';
import { createErrorRenderers } from './error-renderers.js';
import type { Logger } from '../platform/logger.js';
import { baseUrlOf } from '../test-support/app.js';

describe('a database outage', () => {
  it('is logged once when it starts and once when it ends, with the number of 503s, not a stack per 503', async () => {
    const lines: { level: string; msg: string; fields: Record<string, unknown> }[] = [];
    const record = (level: string) => (fields: Record<string, unknown>, msg: string) => void lines.push({ level, msg, fields });
    const logger = { error: record('error'), warn: record('warn'), info: record('info') } as unknown as Logger;
    let reachable = false;
    const app = express();
    app.get('/down', () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    });
    app.use(createErrorRenderers({ logger, publicUrl: undefined, databaseReachable: async () => reachable }).common);
    const url = `${await baseUrlOf(app.listen(0, '127.0.0.1'))}/down`;
    for (let i = 0; i < 25; i++) expect((await fetch(url)).status).toBe(503);
    expect(lines.map((line) => line.msg)).toEqual(['database unreachable: answering 503 SERVICE_UNAVAILABLE until it is back']);
    reachable = true;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ level: 'warn', msg: 'database reachable again', fields: { refused: 25 } });
  });
});
