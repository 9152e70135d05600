import type { components } from '../../generated/api.js';
import type { Caller } from '../http/caller.js';
import type { RunOperation } from '../http/run-operation.js';

export type Task = components['schemas']['Task'];
export type TaskList = components['schemas']['TaskList'];
export type TaskStatusFilter = 'open' | 'completed' | 'all';

/** The largest page listTasks gives (openapi.yaml, `limit`): the fewest runs for a walk. */
const WALK_PAGE_SIZE = 200;

/** One page of listTasks, run as its route runs it (scope `tasks:read`, the document's checks). */
export async function taskPage(
  runOperation: RunOperation,
  caller: Caller,
  query: { status: TaskStatusFilter; cursor?: string; limit?: number; updatedSince?: string },
): Promise<TaskList> {
  const defined = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));
  return (await runOperation('listTasks', caller, { path: {}, query: defined })) as TaskList;
}

/** The most pages a prompt reads (1,000 tasks): its cost is bounded whatever the account holds. */
export const WALK_PAGES_MAX = 5;

/**
 * The caller's tasks with that status, page after page of listTasks (a walk sees each task once,
 * whatever changes meanwhile: its keyset pagination), at most WALK_PAGES_MAX pages. For prompts,
 * which sum up more than one page.
 */
export async function* walkTasks(
  runOperation: RunOperation,
  caller: Caller,
  query: { status: TaskStatusFilter; updatedSince?: string },
): AsyncGenerator<Task> {
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await taskPage(runOperation, caller, { ...query, cursor, limit: WALK_PAGE_SIZE });
    yield* page.items;
    cursor = page.nextCursor ?? undefined;
  } while (cursor && ++pages < WALK_PAGES_MAX);
}
