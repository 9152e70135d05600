import type { GetPromptResult, Prompt, PromptMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../http/caller.js';
import type { RunOperation } from '../http/run-operation.js';
import type { Logger } from '../platform/logger.js';
import { jsonContents, OPEN_TASKS_URI, taskUri, type Resources } from './resource-reads.js';
import { invalidParams, toRpcError } from './rpc-errors.js';
import { walkTasks, type Task } from './task-pages.js';

export type PromptName = 'plan_my_day' | 'triage_overdue' | 'weekly_review';

/** The prompts of docs/signing-in.md: commands a person picks, each built from resources it embeds. */
export interface Prompts {
  /** `prompts/list`, made once. */
  readonly listed: readonly Prompt[];
  /** `prompts/get`: the messages, with the tasks they are about embedded as `task://` resources. */
  get(name: string, args: Record<string, string> | undefined, caller: Caller, requestId?: string): Promise<GetPromptResult>;
  /** The prompt of that name, or the -32602 error of an unknown one. */
  find(name: string): Prompt;
}

/** How many tasks a prompt embeds at most: enough for a day or a week, small enough for a model's context. */
export const EMBEDDED_TASKS_MAX = 20;

const LABEL = { name: 'label', description: 'Only the tasks with this label.', required: false };

export const PROMPT_CATALOGUE: readonly Prompt[] = [
  {
    name: 'plan_my_day',
    title: 'Plan my day',
    description: 'A plan for today from the open tasks, the most urgent first: by priority (1 first), then by due date.',
    arguments: [LABEL, { name: 'hours', description: 'How many hours there are for tasks today, e.g. 6.', required: false }],
  },
  {
    name: 'triage_overdue',
    title: 'Triage overdue tasks',
    description: 'The open tasks whose due date has passed, the longest overdue first, with a decision to make for each.',
    arguments: [LABEL],
  },
  {
    name: 'weekly_review',
    title: 'Weekly review',
    description: 'What was completed in the week (Monday to Sunday, UTC) and what is still open.',
    arguments: [{ name: 'week', description: '`this` (the default) or `last`.', required: false }],
  },
];

export const WEEKS = ['this', 'last'] as const;

export function createPrompts(runOperation: RunOperation, resources: Resources, logger: Logger): Prompts {
  const byName = new Map(PROMPT_CATALOGUE.map((prompt) => [prompt.name, prompt]));
  const find = (name: string) => {
    const prompt = byName.get(name);
    if (!prompt) throw invalidParams(`Unknown prompt: ${name}`, { name });
    return prompt;
  };
  const builders: Record<PromptName, (args: Record<string, string>, caller: Caller, now: Date) => Promise<PromptMessage[]>> = {
    plan_my_day: async (args, caller, now) => {
      const hours = args.hours === undefined ? undefined : hoursOf(args.hours);
      const open = await collect(walkTasks(runOperation, caller, { status: 'open' }), withLabel(args.label));
      if (open.length === 0) return [text([`No open task${labelled(args.label)} (today is ${day(now)}, UTC): the day is free.`])];
      open.sort(byUrgency);
      const shown = open.slice(0, EMBEDDED_TASKS_MAX);
      const intro = [
        `Plan my day (today is ${day(now)}, UTC).`,
        `I have ${count(open.length, 'open task')}${labelled(args.label)}; ${shownLine(shown.length, open.length)}, by priority (1 is the most urgent), then by due date.`,
        hours === undefined ? '' : `I have ${hours} hours for tasks today.`,
        'Pick what fits into today, in the order to do them, with a line each on why; then name what should wait.',
        'Change nothing before I agree (update_task).',
      ];
      return [text(intro), ...shown.map(embeddedTask)];
    },
    triage_overdue: async (args, caller, now) => {
      const overdue = await collect(walkTasks(runOperation, caller, { status: 'open' }), (task) => isOverdue(task, now) && withLabel(args.label)(task));
      overdue.sort(byDueDate);
      if (overdue.length === 0) return [text([`No open task${labelled(args.label)} is overdue (${now.toISOString()}): nothing to triage.`])];
      const shown = overdue.slice(0, EMBEDDED_TASKS_MAX);
      const intro = [
        `${count(overdue.length, 'open task')}${labelled(args.label)} ${overdue.length === 1 ? 'is' : 'are'} overdue (due before ${now.toISOString()}); ${shownLine(shown.length, overdue.length)}, the longest overdue first.`,
        'For each, propose one of: do it today, move its due date (say to when), lower its priority, or delete it.',
        'Ask me before changing anything (update_task, delete_task).',
      ];
      return [text(intro), ...shown.map(embeddedTask)];
    },
    weekly_review: async (args, caller, now) => {
      const week = weekOf(args.week ?? 'this', now);
      const completed = await collect(
        walkTasks(runOperation, caller, { status: 'completed', updatedSince: week.start.toISOString() }),
        (task) => task.completedAt !== null && new Date(task.completedAt) >= week.start && new Date(task.completedAt) < week.end,
      );
      completed.sort((a, b) => a.completedAt!.localeCompare(b.completedAt!));
      const shown = completed.slice(0, EMBEDDED_TASKS_MAX);
      const open = await resources.body(OPEN_TASKS_URI, caller);
      const intro = [
        `Weekly review of the week from ${day(week.start)} to ${day(new Date(week.end.getTime() - 1))} (UTC).`,
        `${count(completed.length, 'task')} completed in it; ${shownLine(shown.length, completed.length)}, in the order they were completed.`,
        `Then the open tasks (${OPEN_TASKS_URI}, its first page).`,
        'Sum up what got done, what is still open and stuck, and suggest the three things to focus on next week.',
      ];
      return [text(intro), ...shown.map(embeddedTask), { role: 'user', content: { type: 'resource', resource: jsonContents(OPEN_TASKS_URI, open) } }];
    },
  };

  return {
    listed: PROMPT_CATALOGUE,
    find,
    async get(name, args = {}, caller, requestId) {
      const prompt = find(name);
      const known = new Set((prompt.arguments ?? []).map((argument) => argument.name));
      const unknown = Object.keys(args).filter((argument) => !known.has(argument));
      if (unknown.length > 0) throw invalidParams(`The prompt ${name} has no argument ${unknown.join(', ')}`, { name, arguments: unknown });
      if (args.week !== undefined && !(WEEKS as readonly string[]).includes(args.week)) {
        throw invalidParams('`week` is `this` or `last`', { name, argument: 'week' });
      }
      try {
        return { description: prompt.description, messages: await builders[name as PromptName](args, caller, new Date()) };
      } catch (err) {
        throw toRpcError(err, logger, { name }, requestId);
      }
    },
  };
}

async function collect(tasks: AsyncIterable<Task>, keep: (task: Task) => boolean): Promise<Task[]> {
  const kept: Task[] = [];
  for await (const task of tasks) if (keep(task)) kept.push(task);
  return kept;
}

const withLabel = (label: string | undefined) => (task: Task) => label === undefined || task.labels.includes(label);
const isOverdue = (task: Task, now: Date) => task.dueAt !== null && new Date(task.dueAt) < now;

/** Priority first (1 before 4), then the due date (none last), then the oldest. */
function byUrgency(a: Task, b: Task): number {
  return a.priority - b.priority || byDueDate(a, b);
}

function byDueDate(a: Task, b: Task): number {
  if (a.dueAt !== b.dueAt) {
    if (a.dueAt === null) return 1;
    if (b.dueAt === null) return -1;
    return Date.parse(a.dueAt) - Date.parse(b.dueAt);
  }
  return a.createdAt.localeCompare(b.createdAt);
}

/** Monday 00:00 UTC of this or last week, and the Monday after. */
function weekOf(which: string, now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7) - (which === 'last' ? 7 : 0));
  const end = new Date(start);
  end.setUTCDate(end.getUTCDate() + 7);
  return { start, end };
}

function hoursOf(value: string): number {
  const hours = Number(value);
  if (value.trim() === '' || !Number.isFinite(hours) || hours <= 0 || hours > 24) {
    throw invalidParams('`hours` is a number of hours, more than 0 and at most 24', { name: 'plan_my_day', argument: 'hours' });
  }
  return hours;
}

function text(lines: string[]): PromptMessage {
  return { role: 'user', content: { type: 'text', text: lines.filter(Boolean).join('\n') } };
}

function embeddedTask(task: Task): PromptMessage {
  return { role: 'user', content: { type: 'resource', resource: jsonContents(taskUri(task.id), task) } };
}

const day = (date: Date) => date.toISOString().slice(0, 10);
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const labelled = (label: string | undefined) => (label === undefined ? '' : ` labelled "${label}"`);
const shownLine = (shown: number, all: number) =>
  shown === 0 ? 'none to show' : shown === all ? `${all === 1 ? 'it is' : 'they are'} below` : `the first ${shown} are below (${all - shown} more not shown)`;
