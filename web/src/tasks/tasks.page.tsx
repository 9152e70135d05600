import { compareTasks, taskMatches, type Task, type TaskApiError, type TaskChange } from '@task-service/sdk';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { client, noticeSessionLoss } from '../api.js';
import { announce } from '../live.js';
import { Loading, Page, Problem } from '../ui.js';
import { isNetworkFailure, sayError } from '../words.js';
import { followChanges } from './feed.js';
import { QuickAdd } from './quick-add.component.js';
import { ShortcutsDialog, useShortcuts } from './shortcuts.js';
import { applyChanges, type ListShape } from './task-changes.js';
import { TaskFilters } from './task-filters.component.js';
import { TaskRow } from './task-row.component.js';
import { isFiltered, queryOf, viewFromUrl, viewToUrl, type View } from './view.js';

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
  const [view, setView] = useState<View>(viewFromUrl);
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
  /** The view's query as the list was loaded with it (the due views are relative to that moment). */
  const query = useRef(queryOf(view));
  const shapeOf = (complete: boolean): ListShape => {
    const asked = query.current;
    return { fits: (task) => taskMatches(asked, task), order: compareTasks(asked.sort), complete };
  };
  const current = useRef({ editing, items, nextCursor });
  current.current = { editing, items, nextCursor };

  /** Changes the feed brings while a page of the list is on its way: applied to that page when it comes. */
  const arrived = useRef<TaskChange[] | null>(null);
  const load = async (shown: View) => {
    setItems(undefined);
    current.current.items = undefined;
    arrived.current = [];
    query.current = queryOf(shown);
    const asked = query.current;
    const page = await attempt(() => client.listTasks({ ...asked, limit: PAGE_SIZE }));
    performance.mark('tasks:response');
    if (asked !== query.current) return;
    const meanwhile = arrived.current ?? [];
    arrived.current = null;
    if ('error' in page) return setListError(page.error);
    setListError(undefined);
    setNextCursor(page.data.nextCursor);
    current.current.nextCursor = page.data.nextCursor;
    current.current.items = page.data.items;
    setItems(page.data.items);
    merge(meanwhile);
  };
  useEffect(() => {
    viewToUrl(view);
    void load(view);
  }, [view]);
  const viewRef = useRef(view);
  viewRef.current = view;
  // A list that could not load is loaded again once the browser is back online.
  useEffect(() => {
    const back = () => current.current.items === undefined && void load(viewRef.current);
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

  const [labelsSeen, setLabelsSeen] = useState(0);
  const merge = (changes: TaskChange[], complete = current.current.nextCursor === null) => {
    const { editing: open, items: held } = current.current;
    if (arrived.current) arrived.current.push(...changes);
    if (!held || changes.length === 0) return;
    const next = applyChanges(held, changes, shapeOf(complete), new Set(open ? [open] : []));
    current.current.items = next.items;
    setItems(next.items);
    setLabelsSeen((count) => count + 1);
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

  const shown = items?.filter((task) => !hidden.has(task.id));
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
    focusNext.current = shapeOf(true).fits(done.data) ? { id: task.id, part: 'check' } : { index };
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
      if (held && !shapeOf(true).fits(held)) {
        focusNext.current = { index: indexOf(task) };
        setItems((all) => all?.filter((other) => other.id !== task.id));
      }
    }
  };

  const loadMore = async () => {
    if (!nextCursor) return;
    setLoadingMore(true);
    arrived.current = [];
    const page = await attempt(() => client.listTasks({ ...query.current, limit: PAGE_SIZE, cursor: nextCursor }));
    setLoadingMore(false);
    const meanwhile = arrived.current ?? [];
    arrived.current = null;
    if ('error' in page) return setListError(page.error);
    const held = current.current.items ?? [];
    const items = [...held, ...page.data.items.filter((task) => !held.some((other) => other.id === task.id))];
    current.current = { ...current.current, items, nextCursor: page.data.nextCursor };
    setItems(items);
    setNextCursor(page.data.nextCursor);
    merge(meanwhile);
  };

  useShortcuts({
    focused: () => shown?.find((task) => task.id === (document.activeElement?.closest('li[data-task-id]') as HTMLElement | null)?.dataset.taskId),
    rows: () => [...(list.current?.querySelectorAll<HTMLElement>('li[data-task-id]') ?? [])],
    toggle: (task) => void toggle(task),
    edit,
    help: () => setHelpOpen(true),
    // A modal dialog (the shortcuts, a confirmation) holds the keys itself: the handler skips keys inside one.
    enabled: editing === undefined,
  });

  return (
    <Page title="Tasks">
      <QuickAdd
        onAdded={(task) => {
          // One's own new task is shown even when the list has more pages; or said to be outside the view.
          if (shapeOf(true).fits(task)) merge([{ kind: 'upserted', task }], true);
          else announce(`Added “${task.title}”; it is not in this view.`);
        }}
      />
      <TaskFilters view={view} onView={setView} refreshLabels={labelsSeen} />

      <Problem error={listError} />
      {feedError !== undefined && listError === undefined && (
        <p class="problem" role="alert">
          {isNetworkFailure(feedError) ? 'The service could not be reached; the list may be out of date. It updates by itself when the connection is back.' : sayError(feedError)}
        </p>
      )}
      {!shown && listError === undefined && <Loading what="tasks" />}
      {shown && shown.length === 0 && <p class="muted">{isFiltered(view) || view.status !== 'open' ? 'No task matches these filters.' : 'No tasks here yet: add one above.'}</p>}
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
