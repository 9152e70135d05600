// The documentation stays true: every relative link leads somewhere, every path written in a code
// span exists, the production guide lists exactly the settings src/config.ts reads, the error
// reference has every error code and the sign-in guide every scope of the document. The metrics and
// the README's curl quick start need a running server: contract-tests/docs/documentation.test.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { settingNames } from '../src/config.js';
import {
  brokenReason,
  codeSpanPaths,
  firstCodeBlockUnder,
  firstColumnUnder,
  githubSlug,
  headingAnchors,
  ignoredPrefixes,
  missingPathReason,
  relativeLinks,
  serviceMetricNames,
  settingLikeNames,
  type Link,
} from './docs-links.js';

const root = new URL('../', import.meta.url).pathname;
const read = (file: string) => readFileSync(`${root}${file}`, 'utf8');

const document = parse(read('openapi/openapi.yaml'));
const errorCodes: string[] = document.components.schemas.ErrorCode.enum;
const scopes: string[] = document.components.schemas.Scope.enum;
// Build outputs and local state a fresh checkout lacks; web/dist is built from web/ by npm run build.
const ignored = [...ignoredPrefixes(read('.gitignore')), 'web/dist'];

const documentation = [
  'README.md',
  ...readdirSync(`${root}docs`)
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
  'sdk/README.md',
  'cli/README.md',
  'sdk-python/README.md',
  'CONTRIBUTING.md',
  'SECURITY.md',
].filter((file) => existsSync(`${root}${file}`));

describe('the documentation', () => {
  it('has a README, the guides in docs/, and the SDK and taskctl READMEs to check', () => {
    expect(documentation).toEqual(expect.arrayContaining(['README.md', 'docs/production.md', 'docs/signing-in.md', 'sdk/README.md', 'cli/README.md']));
  });

  it('links only to files that exist, and to headings that exist when a link names one', () => {
    const broken = documentation
      .flatMap((file) => relativeLinks(file, read(file)))
      .map((link) => ({ link, reason: brokenReason(root, link) }))
      .filter((entry): entry is { link: Link; reason: string } => entry.reason !== undefined)
      .map(({ link, reason }) => `${link.file}:${link.line} (${link.target}): ${reason}`);
    expect(broken).toEqual([]);
  });

  it('names only files and folders that exist when it writes a path in a code span', () => {
    const missing = documentation
      .flatMap((file) => codeSpanPaths(root, file, read(file)))
      .map((path) => ({ path, reason: missingPathReason(root, path, ignored) }))
      .filter((entry): entry is { path: Link; reason: string } => entry.reason !== undefined)
      .map(({ path, reason }) => `${path.file}:${path.line}: ${reason}`);
    expect(missing).toEqual([]);
  });

  it('explains every ErrorCode of the document under a heading of its own in docs/errors.md, and no other', () => {
    const anchors = headingAnchors(read('docs/errors.md'));
    expect(errorCodes.filter((code) => !anchors.has(code.toLowerCase()))).toEqual([]);
    const headed = [...read('docs/errors.md').matchAll(/^### `([A-Z_]+)`$/gm)].map((match) => match[1]!);
    expect(headed.filter((code) => !errorCodes.includes(code))).toEqual([]);
  });

  it('names every scope of the document in docs/signing-in.md', () => {
    const guide = read('docs/signing-in.md');
    expect(scopes.filter((scope) => !guide.includes(`\`${scope}\``))).toEqual([]);
  });

  it('has a curl quick start in the README (run against a server by contract-tests/docs/documentation.test.ts)', () => {
    expect(firstCodeBlockUnder(read('README.md'), 'Quick start with curl', 'sh')).toMatch(/^API=http:\/\/localhost:3000$/m);
  });

  it('keeps the capacity figures in docs/benchmarks.md only: the README links there and gives none of its own', () => {
    const capacity = /^## Capacity\n([^]*?)(?=^## )/m.exec(read('README.md'))?.[1] ?? '';
    expect(capacity).toContain('(docs/benchmarks.md#pipeline)');
    expect(capacity).not.toMatch(/\d,\d{3}|\|/);
  });

  it('tells a reader of the README tour how taskctl finds a server that is not on port 3000', () => {
    const tour = /^## A tour with the SDK and taskctl\n([^]*?)(?=^## )/m.exec(read('README.md'))?.[1] ?? '';
    expect(tour).toContain('`--server <url>`');
    expect(tour).toContain('`TASKCTL_SERVER`');
  });

  it('says nothing of patching installed packages in CONTRIBUTING.md (the project carries no patches)', () => {
    expect(existsSync(`${root}patches`)).toBe(false);
    expect(read('CONTRIBUTING.md')).not.toMatch(/patch-package|patches\//);
  });

  it('names one repository everywhere: the document\'s contact, every package\'s metadata, and SECURITY.md with its advisory form', () => {
    const repository = /url: (https:\/\/github\.com\/[^/\s]+\/[^/\s]+)\/issues/.exec(read('openapi/openapi.yaml'))?.[1];
    expect(repository).toBeDefined();
    for (const file of ['package.json', 'sdk/package.json', 'cli/package.json']) {
      const manifest = JSON.parse(read(file)) as { repository?: { url?: string }; homepage?: string; bugs?: { url?: string } };
      expect(manifest.repository?.url, file).toBe(`git+${repository}.git`);
      expect(manifest.homepage, file).toMatch(new RegExp(`^${repository}[/#]`));
      expect(manifest.bugs?.url, file).toBe(`${repository}/issues`);
    }
    const pyproject = read('sdk-python/pyproject.toml');
    for (const key of ['Homepage', 'Repository', 'Issues']) expect(pyproject).toMatch(new RegExp(`^${key} = "${repository}`, 'm'));
    expect(read('SECURITY.md')).toContain(`${repository}/security/advisories/new`);
    expect(read('SECURITY.md')).not.toMatch(/\.example\b/);
  });

  it('lists every setting src/config.ts reads in the settings table of docs/production.md', () => {
    const table = firstColumnUnder(read('docs/production.md'), 'Settings');
    expect(settingNames.filter((name) => !table.includes(name))).toEqual([]);
  });

  it('names no setting in docs/production.md that src/config.ts does not read (error codes of the document aside)', () => {
    const guide = read('docs/production.md');
    const named = [...new Set([...firstColumnUnder(guide, 'Settings'), ...settingLikeNames(guide)])];
    const unknown = named.filter((name) =>
      name.endsWith('*') ? !settingNames.some((setting) => setting.startsWith(name.slice(0, -1))) : !settingNames.includes(name) && !errorCodes.includes(name),
    );
    expect(unknown).toEqual([]);
  });
});

describe('the link check', () => {
  it('finds paths in code spans, not web types, API paths, placeholders or fenced code, and judges them', () => {
    const markdown = [
      'See `src/config.ts:12`, `docs/`, `contract-tests/oauth/*.test.ts` and `contract-tests/security-*.test.ts`.',
      'Not paths: `application/json`, `/auth/login`, `owner/name`, `@task-service/sdk`, `src/<capability>/`, `https://x.example/a.md`.',
      'Missing: `docs/no-such-guide.md`, `examples/gone/`, `./dist/main.js` (ignored).',
      '```sh',
      'cat `src/not-checked.ts`',
      '```',
    ].join('\n');
    const paths = codeSpanPaths(root, 'README.md', markdown);
    expect(paths.map((path) => path.target)).toEqual([
      'src/config.ts',
      'docs/',
      'contract-tests/oauth/*.test.ts',
      'contract-tests/security-*.test.ts',
      'docs/no-such-guide.md',
      'examples/gone/',
      'dist/main.js',
    ]);
    expect(paths.map((path) => missingPathReason(root, path, ['dist/']) ?? 'ok')).toEqual([
      'ok',
      'ok',
      'ok',
      'no file or folder contract-tests/security-*.test.ts',
      'no file or folder docs/no-such-guide.md',
      'no file or folder examples/gone',
      'ok',
    ]);
  });

  it('reads the service metric names of an exposition and the quick start block under its heading', () => {
    expect(serviceMetricNames('# HELP a x\n# TYPE task_service_a_total counter\n# TYPE process_cpu gauge\n# TYPE task_service_b histogram\n')).toEqual([
      'task_service_a_total',
      'task_service_b',
    ]);
    const readme = ['## Quick start', '```sh', 'echo one', '```', '## Next', '```sh', 'echo two', '```'].join('\n');
    expect(firstCodeBlockUnder(readme, 'Quick start', 'sh')).toBe('echo one');
    expect(firstCodeBlockUnder(readme, 'Missing', 'sh')).toBeUndefined();
    expect(firstCodeBlockUnder(['## Empty', 'prose', '## Next', '```sh', 'x', '```'].join('\n'), 'Empty', 'sh')).toBeUndefined();
  });

  it('makes the anchors GitHub makes for headings with code, punctuation and repeats', () => {
    const anchors = headingAnchors(
      ['# Task Service', '## Headers and 429', '### Browser apps (CORS)', '## `REDIS_URL` and [Redis](x.md)', '## Notes', '```sh', '## not a heading', '```', '## Notes', '### `TOKEN_EXPIRED`', '## _Emphasis_ here'].join('\n'),
    );
    expect([...anchors]).toEqual(['task-service', 'headers-and-429', 'browser-apps-cors', 'redis_url-and-redis', 'notes', 'notes-1', 'token_expired', 'emphasis-here']);
    expect(githubSlug('Running in production: a 2-minute tour — step 1')).toBe('running-in-production-a-2-minute-tour--step-1');
  });

  it('finds relative links in prose and reference definitions, not in code, and leaves web addresses alone', () => {
    const markdown = [
      'See [the guide](docs/production.md#metrics) and ![a picture](img/a.png "title").',
      '`[not a link](in-code.md)` and [a site](https://example.com) and [mail](mailto:a@example.com)',
      '```md',
      '[inside a fence](fenced.md)',
      '```',
      '[ref]: ../cli/README.md#rate-limits',
    ].join('\n');
    expect(relativeLinks('docs/x.md', markdown).map((link) => [link.line, link.target])).toEqual([
      [1, 'docs/production.md#metrics'],
      [1, 'img/a.png'],
      [6, '../cli/README.md#rate-limits'],
    ]);
  });

  it('reads setting names from code spans, alone, with a value or as a family, and nothing else', () => {
    const names = settingLikeNames('Set `REDIS_URL`, `NODE_ENV=production` and `RATE_LIMIT_CLIENT_*`; not `PORT`, `x_Y` or `npm start`.');
    expect([...names]).toEqual(['REDIS_URL', 'NODE_ENV', 'RATE_LIMIT_CLIENT_*']);
  });

  it('reports a missing file, a missing heading and a way out of the repository, and accepts what exists', () => {
    const link = (target: string): Link => ({ file: 'docs/production.md', line: 1, target });
    expect(brokenReason(root, link('no-such-guide.md'))).toBe('no file docs/no-such-guide.md');
    expect(brokenReason(root, link('rate-limits.md#no-such-heading'))).toBe('no heading #no-such-heading in docs/rate-limits.md');
    expect(brokenReason(root, link('../../etc/passwd'))).toBe('points outside the repository');
    expect(brokenReason(root, link('rate-limits.md#headers'))).toBeUndefined();
    expect(brokenReason(root, link('#settings'))).toBeUndefined();
    expect(brokenReason(root, link('../src/config.ts'))).toBeUndefined();
  });
});
