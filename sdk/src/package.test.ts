// The package as an app receives it: the built dist (npm run build -w sdk runs first in the test command).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const rootDir = fileURLToPath(new URL('../..', import.meta.url));
const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

describe('the @task-service/sdk package', () => {
  it('packs the built code, the types of every schema, README.md and LICENSE, and nothing else', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: sdkDir });
    const [packed] = JSON.parse(stdout) as { files: { path: string }[] }[];
    const files = packed!.files.map((file) => file.path).sort();
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/api.d.ts', 'dist/schemas.d.ts', 'dist/oauth.js']));
    expect(files.filter((path) => !/^(dist\/[\w-]+\.(js|d\.ts)|LICENSE|README\.md|package\.json)$/.test(path))).toEqual([]);
    expect(files.some((path) => path.includes('.test.'))).toBe(false);
  }, 60_000);

  it('type-checks an app under strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess (test/fixture-app)', async () => {
    const result = await run(process.execPath, [tsc, '-p', 'sdk/test/fixture-app/tsconfig.json'], { cwd: rootDir }).catch(
      (err: { stdout: string; stderr: string }) => err,
    );
    expect(`${result.stdout}${result.stderr}`).toBe('');
  }, 60_000);

  it('loads with require() from CommonJS, as with import', async () => {
    const script = `
      const sdk = require('@task-service/sdk');
      const client = sdk.createTaskClient({ baseUrl: 'http://127.0.0.1:1' });
      console.log(JSON.stringify({ create: typeof sdk.createTaskClient, error: typeof sdk.TaskApiError, list: typeof client.listTasks }));
    `;
    const { stdout } = await run(process.execPath, ['-e', script], { cwd: rootDir });
    expect(JSON.parse(stdout)).toEqual({ create: 'function', error: 'function', list: 'function' });
    const esm = await run(process.execPath, ['--input-type=module', '-e', "import { createTaskClient } from '@task-service/sdk'; console.log(typeof createTaskClient)"], { cwd: rootDir });
    expect(esm.stdout.trim()).toBe('function');
  }, 60_000);
});
