import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from './docs.routes.js';
import { createRouteMatcher, operationMatcher } from './route-of.js';

const document = {
  paths: {
    '/tasks': { get: { operationId: 'listTasks' }, post: { operationId: 'createTask' } },
    '/tasks/{taskId}': { parameters: [], get: { operationId: 'getTask' } },
    '/oauth/authorizations': { get: { operationId: 'listAuthorizations' } },
    '/oauth/authorizations/{clientId}': { delete: { operationId: 'revokeAuthorization' } },
    '/connector-accounts/{accountId}/sync-jobs': { get: { operationId: 'listSyncJobs' } },
    '/{tenant}/report.csv': { get: { operationId: 'getReport' } },
  },
};
const request = (method: string, originalUrl: string) => ({ method, originalUrl }) as Request;

describe('the operation a path routes to', () => {
  const matcher = operationMatcher(document);
  const idAt = (method: string, path: string) => matcher.operationsAt(path)?.get(method)?.operationId;

  it('finds paths with and without parameters, and prefers the one without', () => {
    expect(idAt('GET', '/tasks')).toBe('listTasks');
    expect(idAt('GET', '/tasks/0b6f8a1e')).toBe('getTask');
    expect(idAt('GET', '/oauth/authorizations')).toBe('listAuthorizations');
    expect(idAt('DELETE', '/oauth/authorizations/taskctl')).toBe('revokeAuthorization');
    expect(idAt('GET', '/connector-accounts/a1/sync-jobs')).toBe('listSyncJobs');
    expect(idAt('GET', '/acme/report.csv')).toBe('getReport');
    expect(idAt('GET', '/acme/reportxcsv')).toBeUndefined();
    expect(idAt('GET', '/tasks/a/b')).toBeUndefined();
    expect(idAt('GET', '/nowhere')).toBeUndefined();
  });

  it('matches as Express routes: any case, trailing slashes ignored', () => {
    expect(idAt('POST', '/TASKS/')).toBe('createTask');
    expect(idAt('GET', '/Tasks/AbC/')).toBe('getTask');
    expect(idAt('GET', '/oauth/Authorizations//')).toBe('listAuthorizations');
  });

  it('is compiled once per document, however many components ask', () => {
    expect(operationMatcher(document)).toBe(matcher);
    expect(matcher.operations.map((operation) => operation.operationId)).toEqual([
      'listTasks',
      'createTask',
      'getTask',
      'listAuthorizations',
      'revokeAuthorization',
      'listSyncJobs',
      'getReport',
    ]);
  });
});

describe('the route of a request, for the access log and the metrics', () => {
  const routeOf = createRouteMatcher(document);

  it('names the path template and operationId, a HEAD as its GET, the query left out', () => {
    expect(routeOf(request('GET', '/tasks/7?status=open'))).toMatchObject({ route: '/tasks/{taskId}', operationId: 'getTask' });
    expect(routeOf(request('HEAD', '/tasks/'))).toMatchObject({ route: '/tasks', operationId: 'listTasks' });
    expect(routeOf(request('PUT', '/tasks'))).toBeUndefined();
  });

  it('leaves unnamed what Express would not route: two trailing slashes', () => {
    expect(routeOf(request('GET', '/tasks//'))).toBeUndefined();
    expect(routeOf(request('GET', '/tasks/7//'))).toBeUndefined();
  });

  it('names the operations of the service\'s own document', () => {
    const own = loadOpenApiDocument().document;
    expect(createRouteMatcher(own)(request('POST', '/Auth/Login/'))).toMatchObject({ route: '/auth/login', operationId: 'login' });
  });
});
