import { describe, expect, it } from 'vitest';
import { toTask } from './tasks.presenter.js';
import type { TaskRow } from './tasks.repository.js';

const row = (labels: string): TaskRow => ({
  id: '00000000-0000-4000-8000-000000000001',
  account_id: '00000000-0000-4000-8000-000000000002',
  title: 'A task',
  notes: null,
  status: 'open',
  priority: 3,
  due_at: null,
  version: 1,
  change_seq: 1,
  labels,
  completed_at: null,
  created_at: 0,
  updated_at: 0,
  connector_account_id: null,
  connector_type: null,
  external_id: null,
  external_url: null,
});

describe('toTask', () => {
  it('shows the stored labels, in their order, for each task', () => {
    expect(toTask(row('[]')).labels).toEqual([]);
    expect(toTask(row('["work","release"]')).labels).toEqual(['work', 'release']);
    expect(toTask(row('["release","work"]')).labels).toEqual(['release', 'work']);
  });

  it("gives every task a list of its own: changing one task's labels leaves another's with the same labels alone", () => {
    const first = toTask(row('["work","release"]'));
    first.labels.push('changed');
    expect(toTask(row('["work","release"]')).labels).toEqual(['work', 'release']);
  });
});
