import type { Task } from '@task-service/sdk';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { REACHABLE } from '../action.js';
import { client } from '../api.js';
import { announce } from '../live.js';
import { Loading, Page, Problem } from '../ui.js';
import { isNetworkFailure, sayError } from '../words.js';
import { QuickAdd } from './quick-add.component.js';
import { ShortcutsDialog, useShortcuts } from './shortcuts.js';
import { TaskFilters } from './task-filters.component.js';
import { TaskRow } from './task-row.component.js';
import { attempt, useTaskList } from './use-task-list.js';
import { isFiltered, viewFromUrl, type View } from './view.js';

type Focus = { id: string; part: 'check' | 'edit' } | { index: number };

export function TasksPage() {
  const [view, setView] = useState<View>(viewFromUrl);
  const [editing, setEditing] = useState<string>();
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [problems, setProblems] = useState<Record<string, unknown>>({});
  const [helpOpen, setHelpOpen] = useState(false);
  const list = useRef<HTMLUListElement>(null);
  const focusNext = useRef<Focus>();
  const busy = useRef(new Set<string>());
  const tasks = useTaskList(view, editing);
  const { items, nextCursor, listError, feedError, loadingMore, gone, merge } = tasks;

  // A row's "could not be reached" goes when the service answers again (as useAction's do, action.ts).
  useEffect(() => {
    const back = () => setProblems((held) => Object.fromEntries(Object.entries(held).filter(([, problem]) => !isNetworkFailure(problem))));
    addEventListener('online', back);
    addEventListener(REACHABLE, back);
    return () => {
      removeEventListener('online', back);
      removeEventListener(REACHABLE, back);
    };
  }, []);

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
    focusNext.current = tasks.fits(done.data) ? { id: task.id, part: 'check' } : { index };
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
    const index = indexOf(task);
    setEditing(undefined);
    // Closed, the row shows what happened to the task meanwhile: it may have left the view.
    focusNext.current = tasks.closed(task.id) ? { index } : { id: task.id, part: 'edit' };
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
          if (tasks.fits(task)) merge([{ kind: 'upserted', task }], true);
          else announce(`Added “${task.title}”; it is not in this view.`);
        }}
      />
      <TaskFilters view={view} onView={setView} refreshLabels={tasks.changesSeen} />

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
        <button type="button" onClick={() => void tasks.loadMore()} disabled={loadingMore}>
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
