import { describe, expect, it } from 'vitest';
import { operation, serveOperations } from './operations.js';

const document = { paths: { '/me': { get: { operationId: 'getMe' }, delete: { operationId: 'deleteMe' } } } };
const getMe = operation('getMe', () => ({ status: 200, body: { id: 'a', email: 'ada@example.com', name: null, createdAt: '2030-01-01T00:00:00.000Z' } }));

describe('the operation table', () => {
  it('starts when every handler names an operation of the document, served or not', () => {
    expect(() => serveOperations(document, [getMe])).not.toThrow();
  });

  it('refuses to start when a handler names an operationId the document does not have', () => {
    const stray = operation('listTasks', () => ({ status: 200, body: { items: [], nextCursor: null } }));
    expect(() => serveOperations(document, [getMe, stray])).toThrow('No operation listTasks in the OpenAPI document');
  });

  it('refuses to start when two handlers serve the same operation', () => {
    expect(() => serveOperations(document, [getMe, getMe])).toThrow('Two handlers for the operation getMe');
  });
});
