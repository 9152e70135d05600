/**
 * npm run check:breaking: compares openapi/openapi.yaml with the newest document in openapi/released/
 * and fails on a breaking change unless info.version's major was bumped (docs/versioning.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { checkAgainstRelease } from './breaking-changes.js';

const releasedDir = new URL('../openapi/released/', import.meta.url);
const semver = (name: string) => name.replace(/\.yaml$/, '').split('.').map(Number);
const newest = readdirSync(releasedDir)
  .filter((name) => /^\d+\.\d+\.\d+\.yaml$/.test(name))
  .sort((a, b) => {
    const [x, y] = [semver(a), semver(b)];
    return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  })
  .at(-1);
if (!newest) throw new Error('openapi/released/ holds no released document');

const read = (url: URL) => parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
const { ok, lines } = checkAgainstRelease(read(new URL(newest, releasedDir)), read(new URL('../openapi/openapi.yaml', import.meta.url)));
(ok ? process.stdout : process.stderr).write(`check:breaking against openapi/released/${newest}: ${lines.join('\n')}\n`);
process.exitCode = ok ? 0 : 1;
