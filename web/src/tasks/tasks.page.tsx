import type { Task, TaskApiError, TaskChange } from '@task-service/sdk';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { client, noticeSessionLoss } from '../api.js';
import { announce } from '../live.js';
import { Field, Loading, Page, Problem } from '../ui.js';
import { isNetworkFailure, sayError } from '../words.js';
import { followChanges } from './feed.js';
import { QuickAdd } from './quick-add.component.js';
import { ShortcutsDialog, useShortcuts } from './shortcuts.js';
import { applyChanges, statusFits, type StatusFilter } from './task-changes.js';
import { TaskRow } from './task-row.component.js';

const PAGE_SIZE = 100;
type Focus = { id: string; part: 'check' | 'edit' } | { index: number };

/** A call of a row's action: the answer, or the failure (a refusal or the connection). */
async function attempt<T>(call: () => Promise<{ data?: T | undefined; error?: TaskApiError | undefined }>): Promise<{ data: T } | { error: unknown }> {
  try {
    const answer = await call();
    noticeSessionLoss(answer.error);
    return answer.error ? { error: answer.error } : { data: answer.data as T };
  } catch (caught) {
    return { error: caught ?? new Error('unreachable') };
  }
}

export function TasksPage() {
  const [status, setStatus] = useState<StatusFilter>('open');
  const [label, setLabel] = useState('');
  const [priority, setPriority] = useState('');
  const [items, setItems] = useState<Task[] | undefined>();
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [listError, setListError] = useState<unknown>();
  const [feedError, setFeedError] = useState<unknown>();
  const [loadingMore, setLoadingMore] = useState(false);
  const [editing, setEditing] = useState<string>();
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [problems, setProblems] = useState<Record<string, unknown>>({});
  const [helpOpen, setHelpOpen] = useState(false);
  const list = useRef<HTMLUListElement>(null);
  const focusNext = useRef<Focus>();
  const busy = useRef(new Set<string>());
  const current = useRef({ status, editing, items });
  current.current = { status, editing, items };

  const load = async (filter: StatusFilter) => {
    setItems(undefined);
    const page = await attempt(() => client.listTasks({ status: filter, limit: PAGE_SIZE }));
    performance.mark('tasks:response');
    if ('error' in page) return setListError(page.error);
    setListError(undefined);
    setItems(page.data.items);
    setNextCursor(page.data.nextCursor);
  };
  useEffect(() => void load(status), [status]);
  // A list that could not load is loaded again once the browser is back online.
  useEffect(() => {
    const back = () => current.current.items === undefined && void load(current.current.status);
    addEventListener('online', back);
    return () => removeEventListener('online', back);
  }, []);
  // Measured by the browser test: from the list's answer to the rendered rows.
  useLayoutEffect(() => {
    if (items && performance.getEntriesByName('tasks:response').length > 0) {
      performance.measure('tasks:render', 'tasks:response');
      performance.clearMarks('tasks:response');
    }
  }, [items]);

  const merge = (changes: TaskChange[]) => {
    const { status: filter, editing: open, items: held } = current.current;
    if (!held) return;
    const next = applyChanges(held, changes, statusFits(filter), new Set(open ? [open] : []));
    setItems(next.items);
    if (next.gone.length > 0) setGone((was) => new Set([...was, ...next.gone]));
  };
  useEffect(() => followChanges(merge, setFeedError), []);

  // After an action the focus stays on its row, or goes to the row that took its place.
  useLayoutEffect(() => {
    const want = focusNext.current;
    if (!want || !list.current) return;
    focusNext.current = undefined;
    const rows = [...list.current.querySelectorAll<HTMLElement>('li[data-task-id]')];
    const row = 'id' in want ? rows.find((element) => element.dataset.taskId === want.id) : (rows[want.index] ?? rows.at(-1));
    const target = row?.querySelector<HTMLElement>('id' in want && want.part === 'edit' ? 'button.secondary' : 'input[type=checkbox]');
    (target ?? document.getElementById('new-task'))?.focus();
  });

  const shown = items?.filter((task) => !hidden.has(task.id) && (!label || task.labels.some((held) => held.toLowerCase() === label.trim().toLowerCase())) && (!priority || task.priority === Number(priority)));
  const indexOf = (task: Task) => shown?.findIndex((held) => held.id === task.id) ?? 0;
  const problem = (id: string, error: unknown) => setProblems((held) => ({ ...held, [id]: error }));
  const replace = (task: Task) => merge([{ kind: 'upserted', task }]);

  const toggle = async (task: Task) => {
    if (busy.current.has(task.id)) return;
    busy.current.add(task.id);
    const index = indexOf(task);
    const completing = task.status !== 'completed';
    const done = await attempt(() => client.updateTask(task.id, { status: completing ? 'completed' : 'open' }, { ifMatch: task.version }));
    busy.current.delete(task.id);
    if ('error' in done) return problem(task.id, done.error);
    problem(task.id, undefined);
    focusNext.current = statusFits(current.current.status)(done.data) ? { id: task.id, part: 'check' } : { index };
    replace(done.data);
    if (!completing) return announce(`“${task.title}” is open again.`);
    announce(`Completed “${task.title}”.`, {
      undo: () =>
        void attempt(() => client.updateTask(task.id, { status: 'open' }, { ifMatch: done.data.version })).then((undone) => {
          if ('error' in undone) return announce(`“${task.title}” could not be reopened: ${sayError(undone.error)}`);
          focusNext.current = { id: task.id, part: 'check' };
          replace(undone.data);
          announce(`“${task.title}” is open again.`);
        }),
    });
  };

  /** A delete waits while its `Undo` is offered, hidden meanwhile; it is sent when the offer ends (or the page is left). */
  const remove = (task: Task) => {
    focusNext.current = { index: indexOf(task) };
    setHidden((held) => new Set([...held, task.id]));
    const show = () => setHidden((held) => new Set([...held].filter((id) => id !== task.id)));
    announce(`Deleted “${task.title}”.`, {
      undo: () => {
        show();
        focusNext.current = { id: task.id, part: 'check' };
        announce(`“${task.title}” is back.`);
      },
      settle: () =>
        void attempt(() => client.deleteTask(task.id, { ifMatch: task.version })).then((deleted) => {
          if ('error' in deleted) {
            show();
            problem(task.id, deleted.error);
            return announce(`“${task.title}” was not deleted: ${sayError(deleted.error)}`);
          }
          merge([{ kind: 'deleted', taskId: task.id, deletedAt: new Date().toISOString() }]);
        }),
    });
  };

  const edit = (task: Task) => setEditing(task.id);
  const close = (task: Task) => {
    setEditing(undefined);
    setGone((held) => new Set([...held].filter((id) => id !== task.id)));
    // Closed: the list takes what the feed says about it now (it may no longer match the filter).
    focusNext.current = { id: task.id, part: 'edit' };
    if (gone.has(task.id)) merge([{ kind: 'deleted', taskId: task.id, deletedAt: new Date().toISOString() }]);
    else {
      const held = current.current.items?.find((other) => other.id === task.id);
      if (held && !statusFits(current.current.status)(held)) {
        focusNext.current = { index: indexOf(task) };
        setItems((all) => all?.filter((other) => other.id !== task.id));
      }
    }
  };

  const loadMore = async () => {
    if (!nextCursor) return;
    setLoadingMore(true);
    const page = await attempt(() => client.listTasks({ status, limit: PAGE_SIZE, cursor: nextCursor }));
    setLoadingMore(false);
    if ('error' in page) return setListError(page.error);
    setItems((held) => [...(held ?? []), ...page.data.items.filter((task) => !held?.some((other) => other.id === task.id))]);
    setNextCursor(page.data.nextCursor);
  };

  useShortcuts({
    focused: () => shown?.find((task) => task.id === (document.activeElement?.closest('li[data-task-id]') as HTMLElement | null)?.dataset.taskId),
    rows: () => [...(list.current?.querySelectorAll<HTMLElement>('li[data-task-id]') ?? [])],
    toggle: (task) => void toggle(task),
    edit,
    help: () => setHelpOpen(true),
    enabled: !helpOpen && editing === undefined,
  });

  return (
    <Page title="Tasks">
      <QuickAdd onAdded={(task) => statusFits(status)(task) && setItems((held) => [task, ...(held ?? []).filter((other) => other.id !== task.id)])} />

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

      <Problem error={listError} />
      {feedError !== undefined && listError === undefined && (
        <p class="problem" role="alert">
          {isNetworkFailure(feedError) ? 'The service could not be reached; the list may be out of date. It updates by itself when the connection is back.' : sayError(feedError)}
        </p>
      )}
      {!shown && listError === undefined && <Loading what="tasks" />}
      {shown && shown.length === 0 && <p class="muted">{items?.length ? 'No task matches these filters.' : 'No tasks here yet: add one above.'}</p>}
      <ul class="tasks" aria-label="Tasks" ref={list}>
        {shown?.map((task) => (
          <TaskRow
            key={task.id}
            task={task}
            editing={editing === task.id}
            gone={gone.has(task.id)}
            problem={problems[task.id]}
            onToggle={(row) => void toggle(row)}
            onEdit={edit}
            onDelete={remove}
            onSaved={replace}
            onClose={close}
          />
        ))}
      </ul>
      {nextCursor && (
        <button type="button" onClick={() => void loadMore()} disabled={loadingMore}>
          {loadingMore ? 'Loading…' : 'Load more'}
        </button>
      )}
      <p class="muted hint">
        Press <kbd>?</kbd> for keyboard shortcuts.
      </p>
      {helpOpen && <ShortcutsDialog onClose={() => setHelpOpen(false)} />}
    </Page>
  );
}
