import { describe, expect, it } from 'vitest';
import { operationTable } from './operation-table.js';
import { entriesByOperation, operation, ownResponse } from './operations.js';

const table = operationTable({
  paths: { '/me': { get: { operationId: 'getMe', 'x-rate-limit-budget': 'account' }, delete: { operationId: 'deleteMe', 'x-rate-limit-budget': 'account' } } },
});
const getMe = operation('getMe', () => ({ status: 200, body: { id: 'a', email: 'ada@example.com', name: null, createdAt: '2030-01-01T00:00:00.000Z' } }));
const deleteMe = ownResponse('deleteMe', (_req, res) => void res.status(204).end());

describe('the operation table', () => {
  it('starts when every operation of the document has exactly one entry', () => {
    expect(() => entriesByOperation(table, [getMe, deleteMe])).not.toThrow();
  });

  it('refuses to start, in one line, when an operation of the document has no entry', () => {
    expect(() => entriesByOperation(table, [getMe])).toThrow(/^Operations of the OpenAPI document that nothing serves: deleteMe$/);
  });

  it('refuses to start when a handler names an operationId the document does not have', () => {
    const stray = operation('listTasks', () => ({ status: 200, body: { items: [], nextCursor: null } }));
    expect(() => entriesByOperation(table, [getMe, deleteMe, stray])).toThrow('No operation listTasks in the OpenAPI document');
  });

  it('refuses to start when two handlers serve the same operation', () => {
    expect(() => entriesByOperation(table, [getMe, getMe, deleteMe])).toThrow('Two handlers for the operation getMe');
  });
});
