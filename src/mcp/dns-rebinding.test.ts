import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors.js';
import { createDnsRebindingGuard, type RebindingSettings } from './dns-rebinding.js';

function outcome(settings: RebindingSettings, host: string | undefined, origin?: string): string {
  const req = { host, headers: origin === undefined ? {} : { origin } } as unknown as Request;
  let result = 'passed';
  createDnsRebindingGuard(settings)(req, {} as never, (err?: unknown) => {
    if (err) result = err instanceof AppError ? `${err.status} ${err.code}` : 'other';
  });
  return result;
}

describe('DNS-rebinding protection of /mcp', () => {
  it('without PUBLIC_URL, answers loopback names on any port and refuses every other Host', () => {
    const settings: RebindingSettings = { CORS_ALLOWED_ORIGINS: '*' };
    for (const host of ['localhost:3000', '127.0.0.1:49152', '[::1]:8080', 'LOCALHOST', '127.0.0.1']) expect(outcome(settings, host)).toBe('passed');
    for (const host of ['evil.example', 'evil.example:3000', 'localhost.evil.example', '127.0.0.1.nip.io:3000', '10.0.0.5:3000', undefined]) {
      expect(outcome(settings, host)).toBe('403 HOST_NOT_ALLOWED');
    }
  });

  it('with PUBLIC_URL, answers only its host (and port)', () => {
    const settings: RebindingSettings = { PUBLIC_URL: 'https://tasks.example.com', CORS_ALLOWED_ORIGINS: '*' };
    expect(outcome(settings, 'tasks.example.com')).toBe('passed');
    expect(outcome(settings, 'Tasks.Example.com')).toBe('passed');
    for (const host of ['localhost:3000', 'tasks.example.com:8443', 'evil.example']) expect(outcome(settings, host)).toBe('403 HOST_NOT_ALLOWED');
  });

  it('refuses an Origin outside CORS_ALLOWED_ORIGINS; no Origin (not a browser) or * lets it through', () => {
    const listed: RebindingSettings = { CORS_ALLOWED_ORIGINS: ['https://app.example.com'] };
    expect(outcome(listed, 'localhost:3000', 'https://app.example.com')).toBe('passed');
    expect(outcome(listed, 'localhost:3000')).toBe('passed');
    expect(outcome(listed, 'localhost:3000', 'https://evil.example')).toBe('403 ORIGIN_NOT_ALLOWED');
    expect(outcome({ CORS_ALLOWED_ORIGINS: '*' }, 'localhost:3000', 'https://evil.example')).toBe('passed');
  });
});
