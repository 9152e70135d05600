import type { Command } from 'commander';
import type { components } from '@task-service/sdk';
import type { Context } from '../context.js';
import { bar } from '../output.js';

type Usage = components['schemas']['Usage'];
type WindowUsage = components['schemas']['WindowUsage'];
type WithContext = (action: (context: Context, ...args: never[]) => Promise<void>) => (...args: unknown[]) => Promise<void>;

export function usageCommand(program: Command, run: WithContext): void {
  program
    .command('usage')
    .description("Show the account's caps and request budgets (a bar for each in a terminal)")
    .addHelpText('after', '\nExamples:\n  taskctl usage\n  taskctl usage --json')
    .action(
      run(async (context) => {
        const usage = await context.unwrap(await context.client().getUsage());
        context.output.result(usage, () => printUsage(context, usage));
      }),
    );
}

function printUsage(context: Context, usage: Usage): void {
  const bars = context.output.isTerminal;
  const rows: [string, number, number, string][] = [
    ['Tasks', usage.tasks.used, usage.tasks.limit, ''],
    ...usage.connectorAccounts.map((cap): [string, number, number, string] => [`${cap.type} accounts`, cap.used, cap.limit, '']),
  ];
  const windows: [string, WindowUsage][] = [
    ['Account, this minute', usage.rateLimits.account.burst],
    ['Account, this hour', usage.rateLimits.account.sustained],
    ['This client, this minute', usage.rateLimits.client.burst],
    ['This client, this hour', usage.rateLimits.client.sustained],
  ];
  for (const [label, window] of windows) {
    rows.push([`Requests: ${label}`, window.limit - window.remaining, window.limit, `resets in ${window.resetSeconds} s`]);
  }
  const width = Math.max(...rows.map(([label]) => label.length));
  context.output.line('Caps and budgets (used of limit):');
  for (const [label, used, limit, note] of rows) {
    const figures = `${used} of ${limit}`.padEnd(14);
    context.output.line(`  ${label.padEnd(width)}  ${bars ? `${bar(used, limit)} ` : ''}${figures}${note ? ` ${note}` : ''}`.trimEnd());
  }
}
