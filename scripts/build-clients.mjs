// postinstall: builds the SDK, taskctl and the web app (web/dist, served at /app/) when their sources are there, so `npx taskctl` works in a
// checkout right after `npm ci`. Skipped where the sources are not copied yet (the Dockerfile installs
// before it copies them); a failed build warns instead of failing the install.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const root = new URL('../', import.meta.url).pathname;
const workspaces = [
  ['sdk', 'sdk/src/index.ts'],
  ['cli', 'cli/src/main.ts'],
  ['web', 'web/src/main.tsx'],
];
for (const [name, source] of workspaces) {
  if (!existsSync(`${root}${source}`) || !existsSync(`${root}node_modules/typescript`)) continue;
  const built = spawnSync('npm', ['run', 'build', '--silent', '-w', name], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) {
    process.stderr.write(`warning: could not build ${name}; run \`npm run build -w ${name}\` to see why.\n`);
    break;
  }
}
