import { Command, CommanderError, Option } from 'commander';
import { connectorCommands } from './commands/connectors.js';
import { mcpCommand } from './commands/mcp.js';
import { sessionCommands } from './commands/session.js';
import { taskCommands } from './commands/tasks.js';
import { tokenCommands } from './commands/tokens.js';
import { usageCommand } from './commands/usage.js';
import { webhookCommands } from './commands/webhooks.js';
import { Context, type GlobalOptions } from './context.js';
import { CliError, EXIT } from './errors.js';

const HELP_AFTER = `
Sign in once with \`taskctl login\` (a browser) or \`taskctl login --device\` (a code to enter elsewhere);
tokens are kept in $TASKCTL_CONFIG_DIR (default: your config directory) and refreshed as needed.
For scripts and CI, set TASKCTL_TOKEN to an API token (tsk_...) instead.

Server: --server, else $TASKCTL_SERVER, else the server of the latest login, else http://localhost:3000.
Exit codes: 0 success, 1 failure, 2 usage error, 4 sign-in needed.`;

/** Runs taskctl with these arguments (process.argv form) and resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command('taskctl')
    .description('The Task Service on the command line: tasks, connectors, usage, API tokens and webhooks.')
    .version('0.1.0')
    .option('--server <url>', 'the Task Service to talk to')
    .option('--json', "print the API's JSON instead of tables")
    .addOption(new Option('--max-wait <seconds>', 'when rate limited, wait at most this long in all, then give up').default('120'))
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .addHelpText('after', HELP_AFTER)
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();

  const run =
    (action: (context: Context, ...args: never[]) => Promise<void>) =>
    async (...args: unknown[]): Promise<void> => {
      const context = new Context(program.opts<GlobalOptions>());
      // commander passes the arguments, the options, then the command: the action takes what it needs.
      await (action as (context: Context, ...rest: unknown[]) => Promise<void>)(context, ...args);
    };

  sessionCommands(program, run);
  usageCommand(program, run);
  taskCommands(program, run);
  connectorCommands(program, run);
  tokenCommands(program, run);
  webhookCommands(program, run);
  mcpCommand(program, run);
  for (const command of program.commands) {
    command.exitOverride();
    for (const sub of command.commands) sub.exitOverride().showHelpAfterError('(add --help for usage)');
  }

  try {
    await program.parseAsync(argv);
  } catch (err) {
    exitCode = exitCodeOf(err);
  }
  return exitCode;
}

function exitCodeOf(err: unknown): number {
  if (err instanceof CommanderError) {
    // --help, --version, and a command group run without its subcommand (commander prints the help).
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.ok;
    if (err.code === 'commander.executeSubCommandAsync') return EXIT.ok;
    return EXIT.usage;
  }
  if (err instanceof CliError) {
    process.stderr.write(`taskctl: ${err.message}\n`);
    return err.exitCode;
  }
  if (err instanceof TypeError && /fetch failed/.test(err.message)) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    process.stderr.write(`taskctl: could not reach the server (${cause?.code ?? cause?.message ?? 'network error'}). Check --server or TASKCTL_SERVER.\n`);
    return EXIT.failure;
  }
  process.stderr.write(`taskctl: ${err instanceof Error ? err.message : String(err)}\n`);
  return EXIT.failure;
}
