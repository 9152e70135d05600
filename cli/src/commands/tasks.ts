import { Option, type Command } from 'commander';
import type { components } from '@task-service/sdk';
import type { Context } from '../context.js';
import { usageError } from '../errors.js';
import { IF_MATCH_HELP, ifMatchOption, unwrapConditional } from './if-match.js';
import { when, type Column } from '../output.js';

type Task = components['schemas']['Task'];
type TaskChange = components['schemas']['TaskChange'];
type TaskUpdate = components['schemas']['TaskUpdate'];
type WithContext = (action: (context: Context, ...args: never[]) => Promise<void>) => (...args: unknown[]) => Promise<void>;

const COLUMNS: Column<Task>[] = [
  { title: 'ID', value: (task) => task.id, max: 36 },
  { title: 'STATUS', value: (task) => task.status },
  { title: 'PRI', value: (task) => task.priority },
  { title: 'DUE', value: (task) => when(task.dueAt) },
  { title: 'TITLE', value: (task) => task.title, max: 50 },
  { title: 'LABELS', value: (task) => task.labels.join(','), max: 30 },
];

const LABEL_COLUMNS: Column<components['schemas']['LabelList']['items'][number]>[] = [
  { title: 'LABEL', value: (label) => label.name, max: 50 },
  { title: 'OPEN TASKS', value: (label) => label.openTasks },
];

export function taskCommands(program: Command, run: WithContext): void {
  const tasks = program.command('tasks').description('List, add, show, edit, complete and remove tasks');

  tasks
    .command('list')
    .description('List tasks, one page (--limit) or every page (--all)')
    .addOption(new Option('--status <status>', 'which tasks').choices(['open', 'completed', 'all']).default('all'))
    .option('--limit <n>', 'tasks per page (1-200)', '50')
    .option('--cursor <cursor>', 'the page after this cursor (from the previous page)')
    .option('--updated-since <time>', 'only tasks changed since this time (RFC 3339 or YYYY-MM-DD), read from the change feed: every page')
    .option('--all', 'walk every page')
    .option('-q, --search <words>', 'only tasks with a word starting with each of these words, in the title or the notes (no case, no accents)')
    .option('--label <label>', 'only tasks with this label, any case (repeat: every one of them)', collect, [])
    .option('--priority <1-4>', 'only tasks of this priority (repeat: any of them)', collect, [])
    .option('--due-after <time>', 'only tasks due at or after this time (RFC 3339 or YYYY-MM-DD)')
    .option('--due-before <time>', 'only tasks due before this time (RFC 3339 or YYYY-MM-DD)')
    .addOption(new Option('--sort <order>', 'created (oldest first), -created (newest first), updated, -updated, due (soonest first), priority').choices(SORTS))
    .option('--changed-since <cursor>', 'what changed (deletions included) since a cursor an earlier run printed; "start" for every task and a first cursor')
    .addHelpText(
      'after',
      [
        '\nExamples:',
        '  taskctl tasks list',
        '  taskctl tasks list --status open --all',
        '  taskctl tasks list -q "rent" --label home --sort due',
        '  taskctl tasks list --status open --priority 1 --priority 2 --due-before 2026-12-08',
        '  taskctl tasks list --json | jq -r ".items[].title"',
        '  taskctl tasks list --changed-since start',
        '  taskctl tasks list --changed-since <cursor from the last run>',
        '\nA --cursor belongs to the filters and --sort of its page: send the same ones with it.',
      ].join('\n'),
    )
    .action(
      run(async (context, options: ListOptions) => {
        const filters = listFilters(options);
        if (options.changedSince !== undefined) {
          if (options.cursor || options.all || options.updatedSince || options.status !== 'all' || Object.keys(filters).length > 0) {
            throw usageError('--changed-since follows the change feed by itself: leave out --cursor, --all, --updated-since, --status and the filters.');
          }
          await listChanges(context, options.changedSince === 'start' ? undefined : options.changedSince);
          return;
        }
        const limit = wholeNumber(options.limit, '--limit', 1, 200);
        if (options.updatedSince !== undefined) {
          if (options.cursor) throw usageError('--updated-since reads every page of the change feed: leave out --cursor.');
          if (Object.keys(filters).length > 0) throw usageError('--updated-since reads the change feed, which has no filters: leave out --search, --label, --priority, --due-after, --due-before and --sort.');
          await listUpdatedSince(context, dateTime(options.updatedSince, '--updated-since'), options.status);
          return;
        }
        const query = { status: options.status, limit, ...filters };
        const client = context.client();
        if (options.all) {
          if (options.cursor) throw usageError('--all starts from the first page: leave out --cursor.');
          const items: Task[] = [];
          for await (const task of client.listAllTasks(query)) items.push(task);
          context.output.result({ items, nextCursor: null }, () => context.output.table(items, COLUMNS, nothingFound(filters)));
          return;
        }
        const page = await context.unwrap(await client.listTasks({ ...query, cursor: options.cursor }));
        context.output.result(page, () => {
          context.output.table(page.items, COLUMNS, nothingFound(filters));
          if (page.nextCursor) context.output.note(`More tasks: add --cursor ${page.nextCursor}, or --all for every page.`);
        });
      }),
    );

  program
    .command('labels')
    .description("List the account's labels, the most used first, with how many open tasks carry each")
    .addHelpText('after', '\nExamples:\n  taskctl labels\n  taskctl labels --json | jq -r ".items[].name"\n  taskctl tasks list --label "$(taskctl labels --json | jq -r ".items[0].name")"')
    .action(
      run(async (context) => {
        const labels = await context.unwrap(await context.client().listLabels());
        context.output.result(labels, () => context.output.table(labels.items, LABEL_COLUMNS, 'No labels yet: taskctl tasks add "Pay rent" --label home'));
      }),
    );

  tasks
    .command('add')
    .description('Add a task')
    .argument('<title...>', 'the title (several words are joined)')
    .option('--notes <text>', 'notes')
    .option('--priority <1-4>', '1 is the most urgent (default 3)')
    .option('--due <time>', 'due time (RFC 3339, or YYYY-MM-DD for midnight UTC)')
    .option('--label <label>', 'a label (repeat for several)', collect, [])
    .option('--idempotency-key <key>', 'retrying with the same key within 24 h creates nothing new')
    .addHelpText('after', '\nExamples:\n  taskctl tasks add Buy milk\n  taskctl tasks add "Write report" --priority 1 --due 2025-07-01 --label work')
    .action(
      run(async (context, words: string[], options: { notes?: string; priority?: string; due?: string; label: string[]; idempotencyKey?: string }) => {
        const body = {
          title: words.join(' '),
          ...(options.notes !== undefined ? { notes: options.notes } : {}),
          ...(options.priority !== undefined ? { priority: wholeNumber(options.priority, '--priority', 1, 4) as 1 | 2 | 3 | 4 } : {}),
          ...(options.due !== undefined ? { dueAt: dateTime(options.due, '--due') } : {}),
          ...(options.label.length > 0 ? { labels: options.label } : {}),
        };
        const task = await context.unwrap(await context.client().createTask(body, { idempotencyKey: options.idempotencyKey }));
        context.output.result(task, () => context.output.line(`Added task ${task.id}: ${task.title}`));
      }),
    );

  tasks
    .command('show')
    .description('Show one task')
    .argument('<taskId>', "the task's id")
    .addHelpText('after', '\nExample:\n  taskctl tasks show 3f0c6a52-8a8e-4c43-9a4b-2a9f4f1f6d1e')
    .action(
      run(async (context, taskId: string) => {
        const task = await context.unwrap(await context.client().getTask(taskId));
        context.output.result(task, () => showTask(context, task));
      }),
    );

  tasks
    .command('edit')
    .description('Change a task (only the fields given)')
    .argument('<taskId>', "the task's id")
    .option('--title <title>', 'new title')
    .option('--notes <text>', 'new notes')
    .option('--clear-notes', 'remove the notes')
    .option('--priority <1-4>', 'new priority')
    .option('--due <time>', 'new due time (RFC 3339 or YYYY-MM-DD)')
    .option('--clear-due', 'remove the due time')
    .option('--label <label>', 'replace the labels (repeat for several)', collect, [])
    .option('--clear-labels', 'remove every label')
    .addOption(new Option('--status <status>', 'open or completed').choices(['open', 'completed']))
    .option('--if-match <version>', IF_MATCH_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n  taskctl tasks edit <taskId> --priority 2 --due 2025-07-01\n  taskctl tasks edit <taskId> --status open\n' +
        '  taskctl tasks edit <taskId> --title "Final report" --if-match 3   (refused, exit 1, if someone changed it since version 3)',
    )
    .action(
      run(async (context, taskId: string, options: EditOptions & { ifMatch?: string }) => {
        const update = changes(options);
        const ifMatch = ifMatchOption(options.ifMatch);
        const task = await unwrapConditional(context, await context.client().updateTask(taskId, update, { ifMatch }), { taskId, ifMatch, refused: 'changed' });
        context.output.result(task, () => context.output.line(`Updated task ${task.id}: ${task.title} (version ${task.version})`));
      }),
    );

  tasks
    .command('done')
    .description('Mark a task completed')
    .argument('<taskId>', "the task's id")
    .option('--if-match <version>', IF_MATCH_HELP)
    .addHelpText('after', '\nExamples:\n  taskctl tasks done <taskId>\n  taskctl tasks done <taskId> --if-match 2')
    .action(
      run(async (context, taskId: string, options: { ifMatch?: string }) => {
        const ifMatch = ifMatchOption(options.ifMatch);
        const task = await unwrapConditional(context, await context.client().updateTask(taskId, { status: 'completed' }, { ifMatch }), { taskId, ifMatch, refused: 'changed' });
        context.output.result(task, () => context.output.line(`Completed task ${task.id}: ${task.title} (version ${task.version})`));
      }),
    );

  tasks
    .command('rm')
    .description('Delete a task for good')
    .argument('<taskId>', "the task's id")
    .option('--if-match <version>', IF_MATCH_HELP)
    .addHelpText('after', '\nExamples:\n  taskctl tasks rm <taskId>\n  taskctl tasks rm <taskId> --if-match 4   (deletes nothing, exit 1, if it is no longer at version 4)')
    .action(
      run(async (context, taskId: string, options: { ifMatch?: string }) => {
        const ifMatch = ifMatchOption(options.ifMatch);
        await unwrapConditional(context, await context.client().deleteTask(taskId, { ifMatch }), { taskId, ifMatch, refused: 'deleted' });
        context.output.result({ id: taskId, deleted: true }, () => context.output.line(`Deleted task ${taskId}.`));
      }),
    );
}

const CHANGE_COLUMNS: Column<TaskChange>[] = [
  { title: 'CHANGE', value: (change) => change.kind },
  { title: 'ID', value: (change) => (change.kind === 'upserted' ? change.task.id : change.taskId), max: 36 },
  { title: 'STATUS', value: (change) => (change.kind === 'upserted' ? change.task.status : '') },
  { title: 'VER', value: (change) => (change.kind === 'upserted' ? change.task.version : '') },
  { title: 'TITLE', value: (change) => (change.kind === 'upserted' ? change.task.title : ''), max: 50 },
];

/** Follows the change feed to its end: every change since the cursor, and the cursor to keep for next time. */
/** Every change after `cursor` (from the start without one), and the cursor to keep. */
async function changesSince(context: Context, cursor: string | undefined): Promise<{ changes: TaskChange[]; nextCursor: string | undefined }> {
  const client = context.client();
  const changes: TaskChange[] = [];
  let nextCursor = cursor;
  let hasMore = true;
  while (hasMore) {
    // Page by page through unwrap (not the SDK's followTaskChanges), so a refusal reads like every other command's.
    const page = await context.unwrap(await client.listTaskChanges({ cursor: nextCursor, limit: 500 }));
    changes.push(...page.changes);
    nextCursor = page.nextCursor;
    hasMore = page.hasMore;
  }
  return { changes, nextCursor };
}

async function listChanges(context: Context, cursor: string | undefined): Promise<void> {
  const { changes, nextCursor } = await changesSince(context, cursor);
  context.output.result({ changes, nextCursor }, () => {
    context.output.table(changes, CHANGE_COLUMNS, 'No changes.');
    context.output.note(`Next time: taskctl tasks list --changed-since ${nextCursor}`);
  });
}

/**
 * The tasks changed at or after `since`, from the change feed rather than listTasks' deprecated
 * `updatedSince` (docs/versioning.md): the same rows, and a pointer to `--changed-since`, which also tells deletions.
 */
async function listUpdatedSince(context: Context, since: string, status: 'open' | 'completed' | 'all'): Promise<void> {
  const from = Date.parse(since);
  const { changes } = await changesSince(context, undefined);
  const items = changes.flatMap((change) =>
    change.kind === 'upserted' && Date.parse(change.task.updatedAt) >= from && (status === 'all' || change.task.status === status) ? [change.task] : [],
  );
  context.output.result({ items, nextCursor: null }, () => {
    context.output.table(items, COLUMNS, 'No tasks.');
    context.output.note('Deleted tasks are not listed: taskctl tasks list --changed-since start, then the cursor it prints, tells those too.');
  });
}

interface EditOptions {
  title?: string;
  notes?: string;
  clearNotes?: boolean;
  priority?: string;
  due?: string;
  clearDue?: boolean;
  label: string[];
  clearLabels?: boolean;
  status?: 'open' | 'completed';
}

function changes(options: EditOptions): TaskUpdate {
  if (options.notes !== undefined && options.clearNotes) throw usageError('Give --notes or --clear-notes, not both.');
  if (options.due !== undefined && options.clearDue) throw usageError('Give --due or --clear-due, not both.');
  if (options.label.length > 0 && options.clearLabels) throw usageError('Give --label or --clear-labels, not both.');
  const update: TaskUpdate = {
    ...(options.title !== undefined ? { title: options.title } : {}),
    ...(options.notes !== undefined ? { notes: options.notes } : {}),
    ...(options.clearNotes ? { notes: null } : {}),
    ...(options.priority !== undefined ? { priority: wholeNumber(options.priority, '--priority', 1, 4) as 1 | 2 | 3 | 4 } : {}),
    ...(options.due !== undefined ? { dueAt: dateTime(options.due, '--due') } : {}),
    ...(options.clearDue ? { dueAt: null } : {}),
    ...(options.label.length > 0 ? { labels: options.label } : {}),
    ...(options.clearLabels ? { labels: [] } : {}),
    ...(options.status !== undefined ? { status: options.status } : {}),
  };
  if (Object.keys(update).length === 0) throw usageError('Nothing to change: give at least one of --title, --notes, --priority, --due, --label, --status (see taskctl tasks edit --help).');
  return update;
}

function showTask(context: Context, task: Task): void {
  const rows: [string, string][] = [
    ['ID', task.id],
    ['Title', task.title],
    ['Status', task.status + (task.completedAt ? ` (completed ${when(task.completedAt)})` : '')],
    ['Priority', String(task.priority)],
    ['Version', String(task.version)],
    ['Due', when(task.dueAt) || '-'],
    ['Labels', task.labels.join(', ') || '-'],
    ['Source', task.source ? `${task.source.connectorType} ${task.source.externalId}${task.source.url ? ` ${task.source.url}` : ''}` : 'made here'],
    ['Created', when(task.createdAt)],
    ['Updated', when(task.updatedAt)],
  ];
  for (const [name, value] of rows) context.output.line(`${name.padEnd(9)} ${value}`);
  if (task.notes) context.output.line(`\n${task.notes}`);
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

const SORTS = ['created', '-created', 'updated', '-updated', 'due', 'priority'] as const;

interface ListOptions {
  status: 'open' | 'completed' | 'all';
  limit: string;
  cursor?: string;
  updatedSince?: string;
  all?: boolean;
  changedSince?: string;
  search?: string;
  label: string[];
  priority: string[];
  dueAfter?: string;
  dueBefore?: string;
  sort?: (typeof SORTS)[number];
}

/** The list's filters as listTasks takes them (docs/finding-tasks.md: the same meaning in every client); only those given. */
function listFilters(options: ListOptions) {
  return {
    ...(options.search !== undefined ? { q: options.search } : {}),
    ...(options.label.length > 0 ? { label: options.label } : {}),
    ...(options.priority.length > 0 ? { priority: options.priority.map((p) => wholeNumber(p, '--priority', 1, 4) as 1 | 2 | 3 | 4) } : {}),
    ...(options.dueAfter !== undefined ? { dueAfter: dateTime(options.dueAfter, '--due-after') } : {}),
    ...(options.dueBefore !== undefined ? { dueBefore: dateTime(options.dueBefore, '--due-before') } : {}),
    ...(options.sort !== undefined ? { sort: options.sort } : {}),
  };
}

function nothingFound(filters: object): string {
  return Object.keys(filters).some((name) => name !== 'sort') ? 'No task matches these filters.' : 'No tasks.';
}

export function wholeNumber(text: string, option: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw usageError(`${option} must be a whole number from ${min} to ${max}, not "${text}".`);
  return value;
}

/** RFC 3339 as given, or a date alone as midnight UTC. */
function dateTime(text: string, option: string): string {
  const value = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(value) || Number.isNaN(Date.parse(value))) {
    throw usageError(`${option} takes a date (2025-07-01) or an RFC 3339 time (2025-07-01T09:00:00Z), not "${text}".`);
  }
  return value;
}
