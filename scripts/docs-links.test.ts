// The documentation stays true (issue 27): every relative link leads somewhere, and the production
// guide lists exactly the settings src/config.ts reads.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { settingNames } from '../src/config.js';
import { brokenReason, firstColumnUnder, githubSlug, headingAnchors, relativeLinks, settingLikeNames, type Link } from './docs-links.js';

const root = new URL('../', import.meta.url).pathname;
const read = (file: string) => readFileSync(`${root}${file}`, 'utf8');

const errorCodes: string[] = parse(read('openapi/openapi.yaml')).components.schemas.ErrorCode.enum;

const documentation = [
  'README.md',
  ...readdirSync(`${root}docs`)
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
  'sdk/README.md',
  'cli/README.md',
  'sdk-python/README.md',
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
  it('makes the anchors GitHub makes for headings with code, punctuation and repeats', () => {
    const anchors = headingAnchors(
      ['# Task Service', '## Headers and 429', '### Browser apps (CORS)', '## `REDIS_URL` and [Redis](x.md)', '## Notes', '```sh', '## not a heading', '```', '## Notes'].join('\n'),
    );
    expect([...anchors]).toEqual(['task-service', 'headers-and-429', 'browser-apps-cors', 'redis_url-and-redis', 'notes', 'notes-1']);
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
