import type { Request, RequestHandler, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { deprecationSteps } from './deprecation.js';

const route = { path: '/tasks', method: 'get', operationId: 'listTasks' } as const;
const documentWith = (operation: Record<string, unknown>) => ({ paths: { '/tasks': { get: { operationId: 'listTasks', ...operation } } } });
const updatedSince = { name: 'updatedSince', in: 'query', deprecated: true, 'x-deprecated-at': '2026-11-28', 'x-sunset': '2027-06-01', schema: { type: 'string' } };

function run(step: RequestHandler, request: Partial<Request>): Record<string, string> {
  const set: Record<string, string> = {};
  const res = { setHeader: (name: string, value: string) => (set[name] = value) } as unknown as Response;
  let passed = false;
  void step({ query: {}, headers: {}, ...request } as Request, res, () => (passed = true));
  expect(passed).toBe(true);
  return set;
}

describe('deprecation headers', () => {
  it('are sent for a request that uses a deprecated query parameter, and only then', () => {
    const [step] = deprecationSteps(documentWith({ parameters: [updatedSince] }), route, undefined);
    expect(run(step!, { query: { updatedSince: '2026-01-01T00:00:00Z' } })).toEqual({
      Deprecation: '@1795824000',
      Sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
      Link: '</docs#operation/listTasks>; rel="deprecation"',
    });
    expect(run(step!, { query: { status: 'open' } })).toEqual({});
  });

  it('are sent on every request of a deprecated operation, the link on the public address', () => {
    const [step] = deprecationSteps(documentWith({ deprecated: true, 'x-deprecated-at': '2027-01-15', 'x-sunset': '2027-08-01' }), route, 'https://tasks.example.com/');
    expect(run(step!, {})).toEqual({
      Deprecation: `@${Date.UTC(2027, 0, 15) / 1000}`,
      Sunset: 'Sun, 01 Aug 2027 00:00:00 GMT',
      Link: '<https://tasks.example.com/docs#operation/listTasks>; rel="deprecation"',
    });
  });

  it('tell of a deprecated header parameter when it is sent', () => {
    const [step] = deprecationSteps(documentWith({ parameters: [{ ...updatedSince, name: 'X-Old', in: 'header' }] }), route, undefined);
    expect(run(step!, { headers: { 'x-old': '1' } }).Sunset).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(run(step!, {})).toEqual({});
  });

  it('add no step where nothing has a sunset', () => {
    expect(deprecationSteps(documentWith({ parameters: [{ name: 'limit', in: 'query' }] }), route, undefined)).toEqual([]);
    expect(deprecationSteps(documentWith({ deprecated: true }), route, undefined)).toEqual([]);
  });

  it('refuse to start with a deprecation that does not say when it began', () => {
    const { 'x-deprecated-at': _omitted, ...withoutStart } = updatedSince;
    expect(() => deprecationSteps(documentWith({ parameters: [withoutStart] }), route, undefined)).toThrow(/x-deprecated-at must be a date/);
  });
});
