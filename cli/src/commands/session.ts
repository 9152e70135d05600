import type { Command } from 'commander';
import type { Context } from '../context.js';
import { browserLogin, deviceLogin } from '../login.js';

type WithContext = (action: (context: Context, ...args: never[]) => Promise<void>) => (...args: unknown[]) => Promise<void>;

export function sessionCommands(program: Command, run: WithContext): void {
  program
    .command('login')
    .description('Sign in through your browser (OAuth with PKCE), or with --device on a machine without one')
    .option('--device', 'sign in with a code entered on another device (for SSH sessions and machines without a browser)')
    .option('--no-browser', 'print the sign-in address instead of opening a browser')
    .option('--scope <scopes>', 'space-separated scopes to ask for (default: every scope the server offers)')
    .addHelpText(
      'after',
      '\nExamples:\n  taskctl login\n  taskctl login --no-browser\n  taskctl login --device --server https://tasks.example.com\n  taskctl login --scope "tasks:read"',
    )
    .action(
      run(async (context, options: { device?: boolean; browser: boolean; scope?: string }) => {
        const login = options.device
          ? await deviceLogin(context, { scope: options.scope })
          : await browserLogin(context, { openBrowser: options.browser, scope: options.scope });
        context.output.result({ server: login.server, clientId: login.clientId, scope: login.scope }, () =>
          context.output.line(`Signed in to ${login.server} (scopes: ${login.scope}).`),
        );
      }),
    );

  program
    .command('logout')
    .description("Sign out: revoke this login's tokens on the server and forget them")
    .action(
      run(async (context) => {
        const server = context.server;
        const login = context.store.get(server);
        if (!login) {
          context.output.result({ server, signedOut: false }, () => context.output.line(`Not signed in to ${server}; nothing to do.`));
          return;
        }
        const metadata = await context.anonymousClient().getAuthorizationServerMetadata();
        const endpoint = metadata.data?.revocation_endpoint ?? `${server}/oauth/revoke`;
        const response = await context.send(
          new Request(endpoint, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ token: login.refreshToken, token_type_hint: 'refresh_token', client_id: login.clientId }),
          }),
        );
        context.store.remove(server);
        if (!response.ok) {
          context.output.note(`The server did not confirm the revocation (HTTP ${response.status}); the tokens are forgotten here all the same.`);
        }
        context.output.result({ server, signedOut: true, revoked: response.ok }, () => context.output.line(`Signed out of ${server}.`));
      }),
    );

  program
    .command('whoami')
    .description('Show the signed-in account')
    .action(
      run(async (context) => {
        const me = await context.unwrap(await context.client().getMe());
        context.output.result(me, () => {
          const how = context.apiToken ? 'an API token (TASKCTL_TOKEN)' : `taskctl (scopes: ${context.login().scope})`;
          context.output.line(`${me.email}${me.name ? ` (${me.name})` : ''} on ${context.server}`);
          context.output.line(`Account ${me.id}, signed in through ${how}.`);
        });
      }),
    );
}
