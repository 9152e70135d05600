import type { CompleteRequest, CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../http/caller.js';
import type { RunOperation } from '../http/run-operation.js';
import type { Logger } from '../platform/logger.js';
import { WEEKS, type Prompts } from './prompt-gets.js';
import { TASK_TEMPLATE } from './resource-reads.js';
import { invalidParams, toRpcError } from './rpc-errors.js';
import { walkTasks, type Task } from './task-pages.js';

/** `completion/complete` for the argument of the resource template and those of the prompts. */
export type Complete = (params: CompleteRequest['params'], caller: Caller, requestId?: string) => Promise<CompleteResult>;

/** The protocol's most values per answer. */
const MAX_VALUES = 100;

/**
 * Suggestions come from the caller's own account only, through listTasks as its route runs it (scope
 * `tasks:read`): a task id from the start of its title (or of its id), a label from those of the open
 * tasks, a week from the two there are.
 */
export function createCompletions(runOperation: RunOperation, prompts: Prompts, logger: Logger): Complete {
  const taskIds = async (typed: string, caller: Caller) => {
    const prefix = typed.toLocaleLowerCase();
    const matches: Task[] = [];
    for await (const task of walkTasks(runOperation, caller, { status: 'all' })) {
      if (task.title.toLocaleLowerCase().startsWith(prefix) || task.id.startsWith(prefix)) matches.push(task);
    }
    // The open ones first, then by title: the task a person most likely means.
    matches.sort((a, b) => Number(a.status !== 'open') - Number(b.status !== 'open') || a.title.localeCompare(b.title));
    return matches.map((task) => task.id);
  };
  const labels = async (typed: string, caller: Caller) => {
    const prefix = typed.toLocaleLowerCase();
    const found = new Set<string>();
    for await (const task of walkTasks(runOperation, caller, { status: 'open' })) {
      for (const label of task.labels) if (label.toLocaleLowerCase().startsWith(prefix)) found.add(label);
    }
    return [...found].sort((a, b) => a.localeCompare(b));
  };
  const weeks = async (typed: string) => WEEKS.filter((week) => week.startsWith(typed.toLowerCase()));

  return async ({ ref, argument }, caller, requestId) => {
    let suggest: (typed: string, caller: Caller) => Promise<string[]>;
    if (ref.type === 'ref/resource') {
      if (ref.uri !== TASK_TEMPLATE) throw invalidParams(`No resource template ${ref.uri} completes`, { uri: ref.uri });
      if (argument.name !== 'taskId') throw invalidParams(`The template ${TASK_TEMPLATE} has no argument ${argument.name}`, { uri: ref.uri, argument: argument.name });
      suggest = taskIds;
    } else {
      const prompt = prompts.find(ref.name);
      if (!prompt.arguments?.some((known) => known.name === argument.name)) {
        throw invalidParams(`The prompt ${ref.name} has no argument ${argument.name}`, { name: ref.name, argument: argument.name });
      }
      suggest = argument.name === 'label' ? labels : argument.name === 'week' ? weeks : async () => [];
    }
    try {
      const values = await suggest(argument.value, caller);
      return { completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES } };
    } catch (err) {
      throw toRpcError(err, logger, { ref, argument: argument.name }, requestId);
    }
  };
}
