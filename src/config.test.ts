import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('gives every setting its documented default (docs/production.md)', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      JWT_ACCESS_EXPIRES: 120,
      JWT_REFRESH_EXPIRES: 2_592_000,
      RATE_LIMIT_BURST_PER_MINUTE: 400,
      RATE_LIMIT_SUSTAINED_PER_HOUR: 8000,
      RATE_LIMIT_CLIENT_BURST_PER_MINUTE: 240,
      RATE_LIMIT_CLIENT_SUSTAINED_PER_HOUR: 4000,
      RATE_LIMIT_STRICT_BURST_PER_MINUTE: 40,
      RATE_LIMIT_STRICT_SUSTAINED_PER_HOUR: 400,
      RATE_LIMIT_REFRESH_BURST_PER_MINUTE: 120,
      RATE_LIMIT_REFRESH_SUSTAINED_PER_HOUR: 2400,
      LOGIN_MAX_FAILED_ATTEMPTS: 5,
      LOGIN_LOCKOUT_MINUTES: 15,
      TASKS_MAX_PER_ACCOUNT: 10_000,
      CONNECTOR_ACCOUNTS_MAX_PER_TYPE: 5,
      CONNECTOR_ALLOW_PRIVATE_NETWORKS: false,
      TRUST_PROXY: false,
      CORS_ALLOWED_ORIGINS: '*',
    });
    expect(config.database).toEqual({ client: 'sqlite', filename: './data/task-service.sqlite' });
  });

  it('reads numbers, flags and the database address from the environment', () => {
    const config = loadConfig({
      RATE_LIMIT_BURST_PER_MINUTE: '7',
      CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true',
      TRUST_PROXY: '1',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/tasks',
    });
    expect(config.RATE_LIMIT_BURST_PER_MINUTE).toBe(7);
    expect(config.CONNECTOR_ALLOW_PRIVATE_NETWORKS).toBe(true);
    expect(config.TRUST_PROXY).toBe(1);
    expect(config.database).toEqual({
      client: 'postgres',
      url: 'postgres://postgres@127.0.0.1:5432/tasks',
      timeouts: { statementMs: 30_000, lockMs: 5_000, acquireMs: 10_000 },
    });
    expect(loadConfig({ DATABASE_URL: 'sqlite:/tmp/x.db' }).database).toEqual({ client: 'sqlite', filename: '/tmp/x.db' });
  });

  it('reads CORS_ALLOWED_ORIGINS as * or a list of origins', () => {
    expect(loadConfig({ CORS_ALLOWED_ORIGINS: '*' }).CORS_ALLOWED_ORIGINS).toBe('*');
    expect(loadConfig({ CORS_ALLOWED_ORIGINS: 'https://app.example.com, http://127.0.0.1:8080' }).CORS_ALLOWED_ORIGINS).toEqual([
      'https://app.example.com',
      'http://127.0.0.1:8080',
    ]);
  });

  it.each([
    ['RATE_LIMIT_BURST_PER_MINUTE', 'lots'],
    ['RATE_LIMIT_BURST_PER_MINUTE', '0'],
    ['PORT', '70000'],
    ['LOGIN_MAX_FAILED_ATTEMPTS', '2.5'],
    ['DATABASE_URL', 'mysql://x'],
    ['CONNECTOR_SECRET_KEY', 'too-short'],
    ['CONNECTOR_ALLOW_PRIVATE_NETWORKS', 'maybe'],
    ['CORS_ALLOWED_ORIGINS', 'app.example.com'],
    ['CORS_ALLOWED_ORIGINS', 'https://app.example.com/'],
    ['CORS_ALLOWED_ORIGINS', 'https://app.example.com/path'],
    ['CORS_ALLOWED_ORIGINS', 'https://app.example.com, *'],
    ['CORS_ALLOWED_ORIGINS', 'null'],
    ['CORS_ALLOWED_ORIGINS', ' , '],
  ])('stops on a bad %s with one line naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrowError(new RegExp(`^Invalid setting ${name}=`));
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      expect((err as Error).message).not.toContain('\n');
    }
  });

  it('validates responses outside production unless told otherwise, and not in production', () => {
    expect(loadConfig({}).OPENAPI_VALIDATE_RESPONSES).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).OPENAPI_VALIDATE_RESPONSES).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).OPENAPI_VALIDATE_RESPONSES).toBe(true);
    expect(loadConfig({ OPENAPI_VALIDATE_RESPONSES: 'false' }).OPENAPI_VALIDATE_RESPONSES).toBe(false);
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), CONNECTOR_SECRET_KEY: 'a'.repeat(64) };
    expect(loadConfig(production).OPENAPI_VALIDATE_RESPONSES).toBe(false);
    expect(loadConfig({ ...production, OPENAPI_VALIDATE_RESPONSES: '1' }).OPENAPI_VALIDATE_RESPONSES).toBe(true);
  });

  it('refuses production without a strong JWT secret and a connector key', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrowError(/JWT_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'short' })).toThrowError(/JWT_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) })).toThrowError(/CONNECTOR_SECRET_KEY/);
    const config = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), CONNECTOR_SECRET_KEY: 'a'.repeat(64) });
    expect(config.OPENAPI_VALIDATE_RESPONSES).toBe(false);
  });
});
