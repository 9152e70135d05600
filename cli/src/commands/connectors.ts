import { readFileSync } from 'node:fs';
import { Argument, type Command } from 'commander';
import type { components } from '@task-service/sdk';
import type { Context } from '../context.js';
import { CliError, usageError } from '../errors.js';
import { when } from '../output.js';

type SyncJob = components['schemas']['SyncJob'];
type WithContext = (action: (context: Context, ...args: never[]) => Promise<void>) => (...args: unknown[]) => Promise<void>;

const POLL_MS = 1000;
const SPINNER = ['|', '/', '-', '\\'];

export function connectorCommands(program: Command, run: WithContext): void {
  const connectors = program.command('connectors').description('Connect external accounts (GitHub, iCalendar feeds) and sync their items into tasks');

  connectors
    .command('types')
    .description('List the connector types and how many accounts of each you may connect')
    .action(
      run(async (context) => {
        const list = await context.unwrap(await context.client().listConnectors());
        context.output.result(list, () =>
          context.output.table(list.items, [
            { title: 'TYPE', value: (item) => item.type },
            { title: 'NAME', value: (item) => item.name },
            { title: 'MAX ACCOUNTS', value: (item) => item.maxAccounts },
          ]),
        );
      }),
    );

  connectors
    .command('list')
    .description('List the connected accounts')
    .action(
      run(async (context) => {
        const list = await context.unwrap(await context.client().listConnectorAccounts());
        context.output.result(list, () =>
          context.output.table(
            list.items,
            [
              { title: 'ID', value: (item) => item.id, max: 36 },
              { title: 'TYPE', value: (item) => item.type },
              { title: 'NAME', value: (item) => item.displayName, max: 40 },
              { title: 'LAST SYNCED', value: (item) => when(item.lastSyncedAt) || 'never' },
            ],
            'No connected accounts. Connect one with `taskctl connectors connect github --token-stdin` or `taskctl connectors connect ical --url <feed>`.',
          ),
        );
      }),
    );

  connectors
    .command('connect')
    .description('Connect an account: github with a token, ical with a feed address')
    .addArgument(new Argument('<type>', 'connector type').choices(['github', 'ical']))
    .option('--token <token>', 'github: a personal access token (prefer --token-stdin: arguments show in process lists)')
    .option('--token-stdin', 'github: read the token from standard input')
    .option('--base-url <url>', 'github: the API root of a GitHub Enterprise server')
    .option('--url <url>', 'ical: the feed address (https or webcal)')
    .addHelpText(
      'after',
      '\nExamples:\n  gh auth token | taskctl connectors connect github --token-stdin\n  taskctl connectors connect ical --url webcal://calendar.example.com/tasks.ics',
    )
    .action(
      run(async (context, type: 'github' | 'ical', options: { token?: string; tokenStdin?: boolean; baseUrl?: string; url?: string }) => {
        const body = credentials(type, options);
        const result = await context.client().connectAccount(type, body);
        const account = await context.unwrap(result);
        context.output.result(account, () =>
          context.output.line(`${result.response.status === 201 ? 'Connected' : 'Reconnected'} ${account.type} account ${account.displayName} (${account.id}).`),
        );
      }),
    );

  connectors
    .command('disconnect')
    .description('Disconnect an account (its tasks stay, as local tasks)')
    .argument('<accountId>', "the connected account's id (see taskctl connectors list)")
    .action(
      run(async (context, accountId: string) => {
        await context.unwrap(await context.client().disconnectAccount(accountId));
        context.output.result({ id: accountId, disconnected: true }, () => context.output.line(`Disconnected account ${accountId}; its tasks are kept.`));
      }),
    );

  connectors
    .command('sync')
    .description("Sync a connected account's items into tasks, and wait for the job")
    .argument('<accountId>', "the connected account's id (see taskctl connectors list)")
    .option('--no-wait', 'start the job and return at once')
    .addHelpText('after', '\nExamples:\n  taskctl connectors sync <accountId>\n  taskctl connectors sync <accountId> --no-wait --json')
    .action(
      run(async (context, accountId: string, options: { wait: boolean }) => {
        const client = context.client();
        let job = await context.unwrap(await client.startSync(accountId));
        if (options.wait) job = await follow(context, job);
        context.output.result(job, () => {
          if (!options.wait) return context.output.line(`Sync job ${job.id} is ${job.status}. Follow it with --json polling, or run sync again to wait.`);
          context.output.line(`Sync ${job.status}: ${figures(job)}.`);
        });
        if (job.status === 'failed') throw new CliError(`The sync failed: ${job.error ?? 'no reason given'}`);
      }),
    );
}

/** Polls the job until it ends: a spinner line on a terminal, a line per change otherwise (on stderr). */
async function follow(context: Context, started: SyncJob): Promise<SyncJob> {
  const client = context.client();
  const terminal = process.stderr.isTTY === true && !context.output.json;
  let job = started;
  let last = '';
  for (let tick = 0; ; tick++) {
    const state = `${job.status}: ${figures(job)}`;
    if (terminal) process.stderr.write(`\r\x1b[K${SPINNER[tick % SPINNER.length]} Syncing... ${state}`);
    else if (state !== last) process.stderr.write(`sync ${job.id} ${state}\n`);
    last = state;
    if (job.status === 'succeeded' || job.status === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    job = await context.unwrap(await client.getSyncJob(job.id));
  }
  if (terminal) process.stderr.write('\r\x1b[K');
  return job;
}

function figures(job: SyncJob): string {
  return `fetched ${job.fetched}, created ${job.created}, updated ${job.updated}, unchanged ${job.unchanged}, dropped over quota ${job.droppedOverQuota}`;
}

function credentials(type: 'github' | 'ical', options: { token?: string; tokenStdin?: boolean; baseUrl?: string; url?: string }) {
  if (type === 'ical') {
    if (!options.url) throw usageError('ical needs --url <feed address>.');
    if (options.token || options.tokenStdin || options.baseUrl) throw usageError('--token, --token-stdin and --base-url are for github.');
    return { url: options.url };
  }
  if (options.url) throw usageError('--url is for ical; github takes --token-stdin (or --token) and --base-url.');
  if (options.token && options.tokenStdin) throw usageError('Give --token or --token-stdin, not both.');
  const token = options.tokenStdin ? readFileSync(0, 'utf8').trim() : options.token;
  if (!token) throw usageError('github needs a token: pipe it to --token-stdin (or give --token).');
  return { token, ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}) };
}
