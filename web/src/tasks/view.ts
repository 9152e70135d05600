import type { TaskQuery, TaskSort } from '@task-service/sdk';
import type { StatusFilter } from './task-changes.js';

export type DueView = '' | 'overdue' | 'today' | 'week';

/** What the Tasks page shows: its filters and order, kept in the page address's query (docs/finding-tasks.md). */
export interface View {
  status: StatusFilter;
  q: string;
  labels: string[];
  priority: string;
  due: DueView;
  sort: TaskSort;
}

const SORTS: TaskSort[] = ['created', '-created', 'updated', '-updated', 'due', 'priority'];
const DUES: DueView[] = ['', 'overdue', 'today', 'week'];
const STATUSES: StatusFilter[] = ['open', 'completed', 'all'];

export function viewFromUrl(search = location.search): View {
  const params = new URLSearchParams(search);
  const pick = <T extends string>(name: string, allowed: T[], fallback: T): T => {
    const value = params.get(name) as T | null;
    return value !== null && allowed.includes(value) ? value : fallback;
  };
  const priority = params.get('priority') ?? '';
  return {
    status: pick('status', STATUSES, 'open'),
    q: (params.get('q') ?? '').slice(0, 200),
    labels: params.getAll('label').filter(Boolean),
    priority: /^[1-4]$/.test(priority) ? priority : '',
    due: pick('due', DUES, ''),
    sort: pick('sort', SORTS, 'created'),
  };
}

/** The view in the address (replacing it: the back button is not a filter history); other parameters stay. */
export function viewToUrl(view: View): void {
  const params = new URLSearchParams(location.search);
  for (const name of ['status', 'q', 'label', 'priority', 'due', 'sort']) params.delete(name);
  if (view.status !== 'open') params.set('status', view.status);
  if (view.q.trim()) params.set('q', view.q);
  for (const label of view.labels) params.append('label', label);
  if (view.priority) params.set('priority', view.priority);
  if (view.due) params.set('due', view.due);
  if (view.sort !== 'created') params.set('sort', view.sort);
  const search = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}${location.hash}`);
}

export function isFiltered(view: View): boolean {
  return Boolean(view.q.trim() || view.labels.length || view.priority || view.due);
}

/** The view as `listTasks` (and `taskMatches`) take it; the due views in the browser's time zone, as of `now`. */
export interface ViewQuery {
  status: StatusFilter;
  sort: TaskSort;
  q?: string;
  label?: string[];
  priority?: (1 | 2 | 3 | 4)[];
  dueAfter?: string;
  dueBefore?: string;
}

export function queryOf(view: View, now = new Date()): ViewQuery {
  const startOfDay = (days: number) => {
    const day = new Date(now);
    day.setHours(0, 0, 0, 0);
    day.setDate(day.getDate() + days);
    return day.toISOString();
  };
  const due: Pick<TaskQuery, 'dueAfter' | 'dueBefore'> =
    view.due === 'overdue'
      ? { dueBefore: now.toISOString() }
      : view.due === 'today'
        ? { dueAfter: startOfDay(0), dueBefore: startOfDay(1) }
        : view.due === 'week'
          ? { dueAfter: startOfDay(0), dueBefore: startOfDay(7) }
          : {};
  return {
    status: view.status,
    sort: view.sort,
    ...(view.q.trim() ? { q: view.q.trim() } : {}),
    ...(view.labels.length ? { label: view.labels } : {}),
    ...(view.priority ? { priority: [Number(view.priority) as 1 | 2 | 3 | 4] } : {}),
    ...due,
  };
}
