import { compareTasks, taskMatches, type Task, type TaskApiError, type TaskChange } from '@task-service/sdk';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { client, noticeSessionLoss } from '../api.js';
import { followChanges } from './feed.js';
import { applyChanges, type ListShape } from './task-changes.js';
import { queryOf, viewToUrl, type View } from './view.js';

const PAGE_SIZE = 100;

/** A call's answer, or its failure (a refusal, or the connection itself). */
export async function attempt<T>(call: () => Promise<{ data?: T | undefined; error?: TaskApiError | undefined }>): Promise<{ data: T } | { error: unknown }> {
  try {
    const answer = await call();
    noticeSessionLoss(answer.error);
    return answer.error ? { error: answer.error } : { data: answer.data as T };
  } catch (caught) {
    return { error: caught ?? new Error('unreachable') };
  }
}

/**
 * The tasks of a view: loaded from the service with the view's filters and order (cursor pages),
 * then kept current by the change feed through the SDK's `taskMatches` and `compareTasks`. The task
 * open for editing (`editing`) is never taken out of the list under the person's hands.
 */
export function useTaskList(view: View, editing: string | undefined) {
  const [items, setItems] = useState<Task[] | undefined>();
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [listError, setListError] = useState<unknown>();
  const [feedError, setFeedError] = useState<unknown>();
  const [loadingMore, setLoadingMore] = useState(false);
  /** Tasks deleted elsewhere while open for editing. */
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  /** Counts applied changes: the label chips reload after them. */
  const [changesSeen, setChangesSeen] = useState(0);
  /** The view's query as the list was loaded with it (the due views are relative to that moment). */
  const query = useRef(queryOf(view));
  const current = useRef({ editing, items, nextCursor, view });
  current.current = { editing, items, nextCursor, view };
  /** Changes the feed brings while a page is on its way: applied to that page when it comes. */
  const arrived = useRef<TaskChange[] | null>(null);

  const shapeOf = (complete: boolean): ListShape => {
    const asked = query.current;
    return { fits: (task) => taskMatches(asked, task), order: compareTasks(asked.sort), complete };
  };
  const show = (next: Task[] | undefined) => {
    current.current.items = next;
    setItems(next);
  };

  const merge = (changes: TaskChange[], complete = current.current.nextCursor === null) => {
    const { editing: open, items: held } = current.current;
    if (arrived.current) arrived.current.push(...changes);
    if (!held || changes.length === 0) return;
    const next = applyChanges(held, changes, shapeOf(complete), new Set(open ? [open] : []));
    show(next.items);
    setChangesSeen((count) => count + 1);
    if (next.gone.length > 0) setGone((was) => new Set([...was, ...next.gone]));
  };

  const load = async (shown: View) => {
    show(undefined);
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
    current.current.nextCursor = page.data.nextCursor;
    setNextCursor(page.data.nextCursor);
    show(page.data.items);
    merge(meanwhile);
  };

  const loadMore = async () => {
    const cursor = current.current.nextCursor;
    if (!cursor) return;
    setLoadingMore(true);
    arrived.current = [];
    const page = await attempt(() => client.listTasks({ ...query.current, limit: PAGE_SIZE, cursor }));
    setLoadingMore(false);
    const meanwhile = arrived.current ?? [];
    arrived.current = null;
    if ('error' in page) return setListError(page.error);
    const held = current.current.items ?? [];
    current.current.nextCursor = page.data.nextCursor;
    setNextCursor(page.data.nextCursor);
    show([...held, ...page.data.items.filter((task) => !held.some((other) => other.id === task.id))]);
    merge(meanwhile);
  };

  useEffect(() => {
    viewToUrl(view);
    void load(view);
  }, [view]);
  // A list that could not load is loaded again once the browser is back online.
  useEffect(() => {
    const back = () => current.current.items === undefined && void load(current.current.view);
    addEventListener('online', back);
    return () => removeEventListener('online', back);
  }, []);
  useEffect(() => followChanges(merge, setFeedError), []);
  // Measured by the browser test: from the list's answer to the rendered rows.
  useLayoutEffect(() => {
    if (items && performance.getEntriesByName('tasks:response').length > 0) {
      performance.measure('tasks:render', 'tasks:response');
      performance.clearMarks('tasks:response');
    }
  }, [items]);

  return {
    items,
    nextCursor,
    listError,
    feedError,
    loadingMore,
    gone,
    changesSeen,
    loadMore,
    merge,
    /** Whether a task belongs in the view as loaded. */
    fits: (task: Task) => shapeOf(true).fits(task),
    /**
     * A task's form was closed: the list now takes what happened to it meanwhile (deleted elsewhere,
     * or no longer in the view). True when it left the list.
     */
    closed: (taskId: string): boolean => {
      current.current.editing = undefined;
      setGone((held) => new Set([...held].filter((id) => id !== taskId)));
      const held = current.current.items?.find((task) => task.id === taskId);
      if (!held || (!gone.has(taskId) && shapeOf(true).fits(held))) return false;
      show(current.current.items?.filter((task) => task.id !== taskId));
      return true;
    },
  };
}
