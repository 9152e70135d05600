import type { CompleteRequest, CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import { labelKey } from '../../sdk/src/task-query.js';
import type { components } from '../../generated/api.js';
import type { Caller } from '../http/caller.js';
import type { RunOperation } from '../http/run-operation.js';
import { errors } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { TitleMatch } from '../tasks/tasks.component.js';
import { WEEKS, type Prompts } from './prompt-gets.js';
import { TASK_TEMPLATE } from './resource-reads.js';
import { invalidParams, toRpcError } from './rpc-errors.js';

/** `completion/complete` for the argument of the resource template and those of the prompts. */
export type Complete = (params: CompleteRequest['params'], caller: Caller, requestId?: string) => Promise<CompleteResult>;

type LabelList = components['schemas']['LabelList'];

/** The protocol's most values per answer. */
const MAX_VALUES = 100;

/** The tasks component's bounded prefix query (src/tasks/task-titles.repository.ts). */
export type TasksByPrefix = (accountId: string, prefix: string, limit: number) => Promise<TitleMatch[]>;

/**
 * Suggestions come from the caller's own account only, through listTasks as its route runs it (scope
 * `tasks:read`): a task id from the start of its title (or of its id), a label from the account's
 * labels (listLabels), a week from the two there are.
 */
export function createCompletions(tasksByPrefix: TasksByPrefix, runOperation: RunOperation, prompts: Prompts, logger: Logger): Complete {
  const taskIds = async (typed: string, caller: Caller) => {
    // The scope listTasks asks for: a completion shows no more than the list would.
    if (!caller.scopes.includes('tasks:read')) throw errors.insufficientScope('tasks:read');
    const matches = await tasksByPrefix(caller.accountId, typed, MAX_VALUES + 1);
    // The open ones first, then by title: the task a person most likely means.
    matches.sort((a, b) => Number(a.status !== 'open') - Number(b.status !== 'open') || a.title.localeCompare(b.title));
    return matches.map((task) => task.id);
  };
  // The labels of open tasks as listLabels gives them (the most used first) that start with what was typed, any case.
  const labels = async (typed: string, caller: Caller) => {
    const prefix = labelKey(typed);
    const { items } = (await runOperation('listLabels', caller, { path: {}, query: {} })) as LabelList;
    return items.filter((label) => label.openTasks > 0 && labelKey(label.name).startsWith(prefix)).map((label) => label.name);
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
      // At most MAX_VALUES + 1 are read: `total` counts what was read, not the account.
      return { completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES } };
    } catch (err) {
      throw toRpcError(err, logger, { ref, argument: argument.name }, requestId);
    }
  };
}
