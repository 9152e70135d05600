/**
 * npm run release:pack [folder]: the installable artifacts of a release in one folder (release/ unless
 * named): the npm tarballs of @task-service/sdk and taskctl (npm pack, after their builds), the Python
 * SDK's wheel and sdist (python -m build in .venv-python/), and SHA256SUMS over them (`sha256sum -c`
 * checks it). contract-tests/clients/release-artifacts.test.ts installs each and calls a server with it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Builds every artifact into `folder` (emptied first); the names of the files made, SHA256SUMS last.
 * `build: false` packs the SDK and taskctl as built: the test command builds them before its tests, and
 * building again would rewrite files other tests are reading.
 */
export function packRelease(folder: string, { build = true } = {}): string[] {
  const out = resolve(folder);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const run = (command: string, args: string[]) => execFileSync(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  if (build) {
    run('npm', ['run', '--silent', 'build', '-w', 'sdk']);
    run('npm', ['run', '--silent', 'build', '-w', 'cli']);
  }
  run('npm', ['pack', '--silent', '-w', 'sdk', '-w', 'cli', '--pack-destination', out]);
  run(join(root, '.venv-python', 'bin', 'python'), ['-m', 'build', '--sdist', '--wheel', '--outdir', out, join(root, 'sdk-python')]);
  const artifacts = readdirSync(out).filter((name) => /\.(tgz|whl|tar\.gz)$/.test(name)).sort();
  const sums = artifacts.map((name) => `${createHash('sha256').update(readFileSync(join(out, name))).digest('hex')}  ${name}\n`);
  writeFileSync(join(out, 'SHA256SUMS'), sums.join(''));
  return [...artifacts, 'SHA256SUMS'];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2] ?? join(root, 'release');
  for (const name of packRelease(folder)) process.stdout.write(`${join(folder, name)}\n`);
}
