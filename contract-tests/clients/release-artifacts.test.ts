// What a stranger installs: the artifacts `npm run release:pack` makes (scripts/release-pack.ts), each
// installed in an empty folder of its own and making its first call against a running server, as
// the Install sections of sdk/README.md, cli/README.md and sdk-python/README.md say. The artifacts do
// not depend on the database: run on SQLite only.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packRelease } from '../../scripts/release-pack.js';
import { PASSWORD, signedInClient, startServer, uniqueEmail, type TestServer } from '../support/server.js';

const python = join(process.cwd(), '.venv-python', 'bin', 'python');
const runs = process.env.TEST_DATABASE !== 'postgres' && existsSync(python);

let server: TestServer;
let folder: string;
let artifacts: string[];
const scratch: string[] = [];

/** An empty folder of its own for one installation. */
function emptyFolder(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `task-service-${name}-`));
  scratch.push(dir);
  return dir;
}
let npmApp: string | undefined;
/** One empty folder with both npm tarballs installed (as the Install section of cli/README.md says), made once. */
function installedFromTarballs(): string {
  if (npmApp) return npmApp;
  const app = emptyFolder('npm');
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'first-app', private: true, type: 'module' }));
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', artifact(/^task-service-sdk-.*\.tgz$/), artifact(/^taskctl-.*\.tgz$/)], app);
  return (npmApp = app);
}
const artifact = (pattern: RegExp) => join(folder, artifacts.find((name) => pattern.test(name))!);
const run = (command: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  execFileSync(command, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });

describe.skipIf(!runs)('the release artifacts, installed where nothing else is', () => {
  beforeAll(async () => {
    folder = emptyFolder('release');
    // Packing blocks this process (its builds run synchronously): the server starts after it.
    artifacts = packRelease(folder, { build: false });
    server = await startServer();
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  });

  it('are the two npm tarballs, the wheel and the sdist, with their SHA-256 checksums', () => {
    expect([...artifacts].sort()).toEqual(['SHA256SUMS', 'task-service-sdk-1.0.0.tgz', 'task_service_sdk-1.0.0-py3-none-any.whl', 'task_service_sdk-1.0.0.tar.gz', 'taskctl-0.1.0.tgz'].sort());
    const sums = readFileSync(join(folder, 'SHA256SUMS'), 'utf8').trim().split('\n');
    expect(sums).toHaveLength(4);
    for (const line of sums) {
      const [sum, name] = line.split('  ') as [string, string];
      expect(createHash('sha256').update(readFileSync(join(folder, name))).digest('hex'), name).toBe(sum);
    }
  });

  it('the SDK and taskctl tarballs install together and each makes a first call', () => {
    const app = installedFromTarballs();
    expect(readdirSync(join(app, 'node_modules', '@task-service'))).toEqual(['sdk']);

    const email = uniqueEmail('npm-artifact');
    writeFileSync(
      join(app, 'first-call.mjs'),
      `import { createTaskClient } from '@task-service/sdk';
const client = createTaskClient({ baseUrl: process.argv[2] });
const signedUp = await client.registerAccount({ email: process.argv[3], password: process.argv[4] });
if (signedUp.error) throw signedUp.error;
const { data, error } = await client.createTask({ title: 'From the packed SDK' });
if (error) throw error;
console.log(JSON.stringify(data));\n`,
    );
    const task = JSON.parse(run('node', ['first-call.mjs', server.baseUrl, email, PASSWORD], app)) as { title: string; status: string };
    expect(task).toMatchObject({ title: 'From the packed SDK', status: 'open' });
  });

  it('taskctl from its tarball lists the tasks of an API token, told the server with --server', async () => {
    const app = installedFromTarballs();
    const { client } = await signedInClient(server);
    const token = (await client.createApiToken({ name: 'first cli', scopes: ['tasks:read', 'tasks:write'] })).data!.token;
    await client.createTask({ title: 'Seen by the packed taskctl' });
    const listed = run(join(app, 'node_modules', '.bin', 'taskctl'), ['--server', server.baseUrl, 'tasks', 'list', '--json'], app, {
      TASKCTL_TOKEN: token,
      XDG_CONFIG_HOME: join(app, 'config'),
    });
    expect(listed).toContain('Seen by the packed taskctl');
  });

  it.each([
    ['the wheel', /\.whl$/],
    ['the sdist', /\.tar\.gz$/],
  ])('%s installs into a fresh virtual environment and raises ApiError on a first refused call', (_name, pattern) => {
    const env = emptyFolder('python');
    run(python, ['-m', 'venv', join(env, 'venv')], env);
    run(join(env, 'venv', 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', artifact(pattern)], env);
    const email = uniqueEmail('python-artifact');
    const script = `
import sys
from task_service import ApiError, TaskService
from task_service.generated.api.tasks import get_task

with TaskService(sys.argv[1]) as service:
    service.register(sys.argv[2], sys.argv[3])
    try:
        get_task.sync(task_id="00000000-0000-4000-8000-000000000000", client=service.client)
    except ApiError as error:
        print(error.status, error.code)
`;
    writeFileSync(join(env, 'first_call.py'), script);
    expect(run(join(env, 'venv', 'bin', 'python'), ['first_call.py', server.baseUrl, email, PASSWORD], env).trim()).toBe('404 NOT_FOUND');
  });
});
