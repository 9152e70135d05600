import type { Command } from 'commander';
import type { Context } from '../context.js';
import { when } from '../output.js';
import { wholeNumber } from './tasks.js';

type WithContext = (action: (context: Context, ...args: never[]) => Promise<void>) => (...args: unknown[]) => Promise<void>;
type Scope = 'tasks:read' | 'tasks:write' | 'connectors:read' | 'connectors:write' | 'tokens:manage' | 'webhooks:manage';

export function tokenCommands(program: Command, run: WithContext): void {
  const tokens = program.command('tokens').description('Create, list and revoke API tokens (tsk_...) for scripts and CI (TASKCTL_TOKEN)');

  tokens
    .command('create')
    .description('Create an API token; its secret is shown once')
    .argument('<name>', 'a name to recognise it by')
    .option('--scope <scope>', 'a scope to grant (repeat for several; default: all but tokens:manage and webhooks:manage)', (value: string, previous: string[]) => [...previous, value], [])
    .option('--expires-in-days <days>', 'lifetime in days (1-3650; default: no expiry)')
    .addHelpText('after', '\nExamples:\n  taskctl tokens create ci --scope tasks:read --expires-in-days 30\n  export TASKCTL_TOKEN=$(taskctl tokens create backup --json | jq -r .token)')
    .action(
      run(async (context, name: string, options: { scope: string[]; expiresInDays?: string }) => {
        const body = {
          name,
          ...(options.scope.length > 0 ? { scopes: options.scope as Scope[] } : {}),
          ...(options.expiresInDays !== undefined ? { expiresInDays: wholeNumber(options.expiresInDays, '--expires-in-days', 1, 3650) } : {}),
        };
        const created = await context.unwrap(await context.client().createApiToken(body));
        context.output.result(created, () => {
          context.output.line(created.token);
          context.output.note(`Created API token ${created.id} "${created.name}" (scopes: ${created.scopes.join(' ')}). The secret above is shown only now: store it safely.`);
        });
      }),
    );

  tokens
    .command('list')
    .description('List API tokens (never their secrets)')
    .action(
      run(async (context) => {
        const list = await context.unwrap(await context.client().listApiTokens());
        context.output.result(list, () =>
          context.output.table(
            list.items,
            [
              { title: 'ID', value: (item) => item.id, max: 36 },
              { title: 'NAME', value: (item) => item.name, max: 30 },
              { title: 'PREFIX', value: (item) => item.prefix },
              { title: 'SCOPES', value: (item) => item.scopes.join(' '), max: 60 },
              { title: 'EXPIRES', value: (item) => when(item.expiresAt) || 'never' },
              { title: 'LAST USED', value: (item) => when(item.lastUsedAt) || 'never' },
            ],
            'No API tokens.',
          ),
        );
      }),
    );

  tokens
    .command('revoke')
    .description('Revoke an API token')
    .argument('<tokenId>', "the token's id (see taskctl tokens list)")
    .action(
      run(async (context, tokenId: string) => {
        await context.unwrap(await context.client().revokeApiToken(tokenId));
        context.output.result({ id: tokenId, revoked: true }, () => context.output.line(`Revoked API token ${tokenId}.`));
      }),
    );
}
