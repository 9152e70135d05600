import { compareTasks, taskMatches, type Task } from '@task-service/sdk';
import { describe, expect, it } from 'vitest';
import { applyChanges, type ListShape } from './task-changes.js';

let created = 0;
const task = (title: string, extra: Partial<Task> = {}): Task => {
  created += 1;
  const at = new Date(Date.UTC(2030, 0, 1, 0, created)).toISOString();
  return { id: `id-${title}`, title, notes: null, status: 'open', priority: 4, dueAt: null, labels: [], completedAt: null, createdAt: at, updatedAt: at, source: null, version: 1, ...extra } as Task;
};
const shape = (query: Parameters<typeof taskMatches>[0], sort: Parameters<typeof compareTasks>[0], complete = true): ListShape => ({
  fits: (held) => taskMatches(query, held),
  order: compareTasks(sort),
  complete,
});
const titles = (items: Task[]) => items.map((held) => held.title);

describe('the list after changes from the feed', () => {
  const a = task('a', { priority: 2 });
  const b = task('b', { priority: 1, labels: ['home'] });
  const c = task('c', { priority: 3, labels: ['home'] });

  it('puts a task that now fits at its place in the order, and takes out one that no longer fits', () => {
    const view = shape({ status: 'open', label: ['Home'] }, 'priority');
    const start = [b, c];
    const labelled = { ...a, labels: ['HOME'], version: 2 };
    expect(titles(applyChanges(start, [{ kind: 'upserted', task: labelled }], view).items)).toEqual(['b', 'a', 'c']);
    const done = { ...b, status: 'completed' as const, version: 2 };
    expect(titles(applyChanges(start, [{ kind: 'upserted', task: done }], view).items)).toEqual(['c']);
  });

  it('an older version never overwrites a newer one', () => {
    const newer = { ...a, title: 'a2', version: 3 };
    expect(titles(applyChanges([newer], [{ kind: 'upserted', task: { ...a, version: 2 } }], shape({}, 'created')).items)).toEqual(['a2']);
  });

  it('with more pages to load, a task ordered after the last one shown waits for its page', () => {
    const later = task('later');
    expect(titles(applyChanges([a, b], [{ kind: 'upserted', task: later }], shape({}, 'created', false)).items)).toEqual(['a', 'b']);
    expect(titles(applyChanges([a, b], [{ kind: 'upserted', task: later }], shape({}, 'created', true)).items)).toEqual(['a', 'b', 'later']);
  });

  it('a task being edited stays whatever happens to it, and its deletion is reported', () => {
    const view = shape({ status: 'open' }, 'created');
    const kept = new Set([a.id]);
    const completed = applyChanges([a, b], [{ kind: 'upserted', task: { ...a, status: 'completed', version: 2 } }], view, kept);
    expect(titles(completed.items)).toEqual(['a', 'b']);
    expect(completed.items[0]!.status).toBe('completed');
    const deleted = applyChanges([a, b], [{ kind: 'deleted', taskId: a.id, deletedAt: a.createdAt }], view, kept);
    expect(titles(deleted.items)).toEqual(['a', 'b']);
    expect(deleted.gone).toEqual([a.id]);
  });
});
