import { TaskApiError } from '@task-service/sdk';
import { describe, expect, it } from 'vitest';
import { fieldErrors, lockedSentence, OFFLINE, sayError } from './words.js';

const refusal = (status: number, body: object, headers: Record<string, string> = {}) => new TaskApiError(status, { statusCode: status, ...body }, new Headers(headers));

describe('the words of a refusal', () => {
  it('says a wrong password the same way for every email, with the lockout rule', () => {
    expect(sayError(refusal(401, { code: 'INVALID_CREDENTIALS', message: 'The email or password is wrong.' }))).toBe(
      'The email or password is wrong. After 5 failed sign-ins in a row, sign-in is locked for 15 minutes.',
    );
  });

  it('says when a locked sign-in opens, from Retry-After', () => {
    const now = new Date(2030, 0, 16, 10, 0, 0).getTime();
    expect(lockedSentence(900, now)).toMatch(/locked until 10:15 .*\(in 15 minutes\)/i);
    expect(sayError(refusal(429, { code: 'ACCOUNT_LOCKED', message: 'Too many failed logins.', retryAfterSeconds: 42 }, { 'retry-after': '42' }))).toMatch(/\(in 42 seconds\)/);
  });

  it('keeps the service\'s own sentence where it is one (a quota), and never shows a code or a setting', () => {
    expect(sayError(refusal(403, { code: 'QUOTA_EXCEEDED', message: 'You have 10000 tasks, the most an account can hold.' }))).toBe('You have 10000 tasks, the most an account can hold.');
    const unreachable = sayError(refusal(502, { code: 'CONNECTOR_UNAVAILABLE', message: 'http://10.0.0.1/x could not be reached (ENOTFOUND).' }));
    expect(unreachable).not.toMatch(/ENOTFOUND|10\.0\.0\.1|CONNECTOR/);
  });

  it('a broken connection (fetch rejected) is said as one', () => {
    expect(sayError(new TypeError('Failed to fetch'))).toBe(OFFLINE);
  });

  it('field errors are sentences, never the validator\'s words', () => {
    const refused = refusal(400, {
      code: 'VALIDATION_FAILED',
      message: 'The request does not match the API description.',
      details: [
        { path: '/body/title', message: 'must NOT have fewer than 1 characters' },
        { path: '/body/url', message: 'must be https (plain http is allowed only for a loopback receiver when CONNECTOR_ALLOW_PRIVATE_NETWORKS is on)' },
        { path: '/body/labels', message: 'must NOT have more than 20 items' },
        { path: '/body/name', message: 'must match pattern "\\S"' },
      ],
    });
    expect(fieldErrors(refused)).toEqual({
      title: 'The title cannot be empty.',
      url: 'Use an https:// address of a server on the internet.',
      labels: 'Labels can be at most 20 items.',
      name: 'The name cannot be empty.',
    });
    expect(sayError(refused)).not.toMatch(/API description/);
  });
});
