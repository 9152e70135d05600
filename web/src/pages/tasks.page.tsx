import type { Task, TaskApiError } from '@task-service/sdk';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { client, errorText, fieldErrors, pollInterval } from '../api.js';
import { Field, Loading, Page, Problem } from '../ui.js';
import { applyChanges, type StatusFilter } from './task-changes.js';
import { TaskRow } from './task-row.component.js';

const PAGE_SIZE = 100;

export function TasksPage() {
  const [status, setStatus] = useState<StatusFilter>('open');
  const [label, setLabel] = useState('');
  const [priority, setPriority] = useState('');
  const [items, setItems] = useState<Task[] | undefined>();
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<TaskApiError | string>();
  const [loadingMore, setLoadingMore] = useState(false);
  const [title, setTitle] = useState('');
  const [createError, setCreateError] = useState<TaskApiError>();
  const statusRef = useRef(status);
  statusRef.current = status;

  const load = async (filter: StatusFilter) => {
    setItems(undefined);
    const page = await client.listTasks({ status: filter, limit: PAGE_SIZE });
    performance.mark('tasks:response');
    if (page.error) return setError(page.error);
    setError(undefined);
    setItems(page.data.items);
    setNextCursor(page.data.nextCursor);
  };
  useEffect(() => void load(status), [status]);
  // Measured by the browser test: from the list's answer to the rendered rows.
  useLayoutEffect(() => {
    if (items && performance.getEntriesByName('tasks:response').length > 0) {
      performance.measure('tasks:render', 'tasks:response');
      performance.clearMarks('tasks:response');
    }
  }, [items]);

  useEffect(() => followChanges((changes) => setItems((held) => held && applyChanges(held, changes, statusRef.current)), setError), []);

  const loadMore = async () => {
    if (!nextCursor) return;
    setLoadingMore(true);
    const page = await client.listTasks({ status, limit: PAGE_SIZE, cursor: nextCursor });
    setLoadingMore(false);
    if (page.error) return setError(page.error);
    setItems((held) => [...(held ?? []), ...page.data.items.filter((task) => !held?.some((other) => other.id === task.id))]);
    setNextCursor(page.data.nextCursor);
  };

  const create = async (event: Event) => {
    event.preventDefault();
    const created = await client.createTask({ title }, { idempotencyKey: crypto.randomUUID() });
    setCreateError(created.error);
    if (created.error) return;
    setTitle('');
    if (status !== 'completed') setItems((held) => applyChanges(held ?? [], [{ kind: 'upserted', task: created.data }], status));
  };

  const replace = (task: Task) => setItems((held) => held && applyChanges(held, [{ kind: 'upserted', task }], status));
  const remove = (taskId: string) => setItems((held) => held?.filter((task) => task.id !== taskId));
  const shown = items?.filter((task) => (!label || task.labels.includes(label.trim())) && (!priority || task.priority === Number(priority)));

  return (
    <Page title="Tasks">
      <form class="inline-form" onSubmit={(event) => void create(event)} noValidate>
        <Field id="new-task" label="New task" value={title} onValue={setTitle} required maxLength={500} error={fieldErrors(createError).title} />
        <button type="submit">Add task</button>
      </form>
      {createError && !fieldErrors(createError).title && <Problem error={createError} />}

      <fieldset class="filters">
        <legend>Show</legend>
        <div class="field">
          <label for="filter-status">Status</label>
          <select id="filter-status" value={status} onChange={(event) => setStatus(event.currentTarget.value as StatusFilter)}>
            <option value="open">Open</option>
            <option value="completed">Completed</option>
            <option value="all">All</option>
          </select>
        </div>
        <Field id="filter-label" label="Label" value={label} onValue={setLabel} />
        <div class="field">
          <label for="filter-priority">Priority</label>
          <select id="filter-priority" value={priority} onChange={(event) => setPriority(event.currentTarget.value)}>
            <option value="">Any</option>
            {[1, 2, 3, 4].map((level) => (
              <option key={level} value={String(level)}>
                P{level}
              </option>
            ))}
          </select>
        </div>
      </fieldset>

      <Problem error={error} />
      {!shown && <Loading what="tasks" />}
      {shown && shown.length === 0 && <p class="muted">{items?.length ? 'No task matches these filters.' : 'No tasks here yet: add one above.'}</p>}
      {shown && shown.length > 0 && (
        <ul class="tasks" aria-label="Tasks">
          {shown.map((task) => (
            <TaskRow key={task.id} task={task} onChanged={replace} onDeleted={remove} />
          ))}
        </ul>
      )}
      {nextCursor && (
        <button type="button" onClick={() => void loadMore()} disabled={loadingMore}>
          {loadingMore ? 'Loading…' : 'Load more'}
        </button>
      )}
    </Page>
  );
}

/**
 * Keeps the list in step with other tabs and devices: the feed's cursor from the start, then one
 * poll every interval while the page is visible; a 429 waits as long as it says. Returns the stop.
 */
function followChanges(apply: (changes: Parameters<typeof applyChanges>[1]) => void, fail: (error: TaskApiError | string) => void): () => void {
  let stopped = false;
  let cursor: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = (ms: number) => {
    if (!stopped) timer = setTimeout(() => void poll(), ms);
  };
  const poll = async (): Promise<void> => {
    if (document.visibilityState !== 'visible') return schedule(pollInterval());
    const starting = cursor === undefined;
    try {
      for await (const page of client.followTaskChanges(cursor, { limit: 500 })) {
        if (stopped) return;
        if (!starting) apply(page.changes);
        cursor = page.cursor;
      }
    } catch (caught) {
      const error = caught as TaskApiError;
      if (error.code === 'CURSOR_EXPIRED') cursor = undefined;
      else if (typeof error.status === 'number') {
        fail(errorText(error));
        return schedule(error.isRateLimited ? (error.retryAfterSeconds ?? 60) * 1000 : pollInterval());
      } else fail('The service could not be reached; the list may be out of date.');
    }
    schedule(pollInterval());
  };
  void poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
