import { describe, expect, it } from 'vitest';
import { TaskApiError, parseRetryAfter } from './errors.js';

const body = { statusCode: 429, code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded. Slow down and retry later.', retryAfterSeconds: 17, window: 'account-burst' };

describe('TaskApiError', () => {
  it('flags a 429 as rate limited and reads retryAfterSeconds from Retry-After', () => {
    const error = new TaskApiError(429, body, new Headers({ 'retry-after': '17' }));
    expect(error.isRateLimited).toBe(true);
    expect(error.retryAfterSeconds).toBe(17);
    expect(error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(error.message).toBe(body.message);
    expect(error.body).toEqual(body);
  });

  it('leaves retryAfterSeconds absent when the answer has no Retry-After', () => {
    const error = new TaskApiError(429, body, new Headers());
    expect(error.isRateLimited).toBe(true);
    expect(error.retryAfterSeconds).toBeUndefined();
  });

  it('flags a login lockout (429 ACCOUNT_LOCKED) as rate limited too', () => {
    const locked = { statusCode: 429, code: 'ACCOUNT_LOCKED', message: 'Locked.', retryAfterSeconds: 874 };
    const error = new TaskApiError(429, locked, new Headers({ 'retry-after': '874' }));
    expect([error.isRateLimited, error.code, error.retryAfterSeconds]).toEqual([true, 'ACCOUNT_LOCKED', 874]);
  });

  it('does not flag other failures as rate limited', () => {
    for (const status of [400, 401, 403, 500, 503]) {
      expect(new TaskApiError(status, { statusCode: status, code: 'INTERNAL_ERROR', message: 'x' }, new Headers({ 'retry-after': '5' })).isRateLimited).toBe(false);
    }
  });

  it('keeps working with a body that is not the common error body', () => {
    const error = new TaskApiError(429, '<html>Too Many Requests</html>', new Headers());
    expect([error.isRateLimited, error.code, error.message, error.retryAfterSeconds]).toEqual([true, 'UNKNOWN', 'HTTP 429', undefined]);
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('120')).toBe(120);
    expect(parseRetryAfter(' 7 ')).toBe(7);
  });

  it('reads an HTTP date as whole seconds from now, 0 when it is past', () => {
    const now = Date.UTC(2030, 0, 1, 12, 0, 0);
    expect(parseRetryAfter('Tue, 01 Jan 2030 12:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Tue, 01 Jan 2030 11:00:00 GMT', now)).toBe(0);
  });

  it('is undefined when the header is absent, empty or unreadable', () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('')).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('is undefined for numbers that are not whole seconds, not a wait of 0', () => {
    expect(parseRetryAfter('1.5')).toBeUndefined();
    expect(parseRetryAfter('-3')).toBeUndefined();
  });
});
