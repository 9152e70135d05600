import { describe, expect, it } from 'vitest';
import { pathMatcher } from './path-matcher.js';

const paths = new Map([
  ['/tasks', 'list'],
  ['/tasks/changes', 'changes'],
  ['/tasks/{taskId}', 'task'],
  ['/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', 'redeliver'],
  ['/.well-known/oauth-protected-resource', 'metadata'],
]);
const match = pathMatcher(paths);

describe('the document paths matched in one step', () => {
  it('finds a concrete path, and a template with its parameters decoded', () => {
    expect(match('/tasks')).toEqual({ entry: 'list', params: {} });
    expect(match('/tasks/a%2Fb%20c')).toEqual({ entry: 'task', params: { taskId: 'a/b c' } });
    expect(match('/webhooks/w1/deliveries/d%3A2/redeliver')).toEqual({ entry: 'redeliver', params: { webhookId: 'w1', deliveryId: 'd:2' } });
  });

  it('prefers a concrete path to a template that also matches it', () => {
    expect(match('/tasks/changes')).toEqual({ entry: 'changes', params: {} });
  });

  it('ignores case and one trailing slash, as Express routes', () => {
    expect(match('/TASKS/')).toEqual({ entry: 'list', params: {} });
    expect(match('/Tasks/Abc/')).toEqual({ entry: 'task', params: { taskId: 'Abc' } });
  });

  it('takes regular-expression characters of a path literally', () => {
    expect(match('/.well-known/oauth-protected-resource')?.entry).toBe('metadata');
    expect(match('/xwell-known/oauth-protected-resource')).toBeUndefined();
  });

  it('finds nothing for other paths, empty segments, or a second trailing slash', () => {
    for (const path of ['/', '/task', '/tasks//', '/tasks/a/b', '/tasks/a//', '/tasksx', '/t%61sks']) expect(match(path), path).toBeUndefined();
  });

  it('reports a parameter that is not valid percent-encoding, with the path it belongs to', () => {
    expect(match('/tasks/%ZZ')).toEqual({ entry: 'task', malformed: { name: 'taskId', raw: '%ZZ' } });
  });

  it('does not let a character that lowercases to ASCII stand for it (the Kelvin sign is not k)', () => {
    expect(match('/tas\u212As')).toBeUndefined();
  });
});
