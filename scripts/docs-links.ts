// The link, path and settings checks of the documentation, run by scripts/docs-links.test.ts.
// Reads Markdown as GitHub renders it closely enough for our own pages: fenced code blocks and code
// spans hold no links or headings; a heading's anchor is its text as GitHub slugs it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, relative, resolve } from 'node:path';

export interface Link {
  file: string;
  line: number;
  target: string;
}

/** GitHub's anchor for a heading's text (github-slugger): lower case, punctuation dropped, each space a hyphen. */
export function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings, repeated ones numbered as GitHub does (`-1`, `-2`). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(text);
    if (!heading) continue;
    const base = githubSlug(plainText(heading[1]!));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Links to files of the repository (no scheme, not `//host`), inline or reference-style, images included. */
export function relativeLinks(file: string, markdown: string): Link[] {
  const links: Link[] = [];
  for (const { text, line } of proseLines(markdown)) {
    const prose = text.replace(/`+[^`]*`+/g, '');
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ file, line, target: match[1]! });
    const definition = /^ {0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(prose);
    if (definition) links.push({ file, line, target: definition[1]! });
  }
  return links.filter((link) => !/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(link.target));
}

/** Why a link does not hold (its file or its heading is missing), or undefined when it does. */
export function brokenReason(root: string, link: Link): string | undefined {
  const [path = '', fragment] = link.target.split('#', 2);
  const decoded = decodeURIComponent(path);
  const target = decoded === '' ? resolve(root, link.file) : decoded.startsWith('/') ? resolve(root, `.${decoded}`) : resolve(root, dirname(link.file), decoded);
  if (relative(root, target).startsWith('..')) return 'points outside the repository';
  if (!existsSync(target)) return `no file ${relative(root, target)}`;
  if (fragment === undefined || statSync(target).isDirectory() || extname(target).toLowerCase() !== '.md') return undefined;
  if (!headingAnchors(readFileSync(target, 'utf8')).has(decodeURIComponent(fragment))) {
    return `no heading #${fragment} in ${relative(root, target)}`;
  }
  return undefined;
}

/**
 * Every name written like a setting in a Markdown text: `UPPER_SNAKE` opening a code span, alone or
 * as `NAME=value`; a family such as `RATE_LIMIT_CLIENT_*` comes back with its `*`.
 */
export function settingLikeNames(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*(?:_[A-Z0-9]+|_\*))(?:=[^`]*)?`/g)].map((match) => match[1]!));
}

/** The first cells of the table under a heading (`## Settings`), without their backticks. */
export function firstColumnUnder(markdown: string, heading: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.replace(/^#+\s*/, '') === heading && line.startsWith('#'));
  if (start < 0) return [];
  const cells: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    const cell = /^\|\s*`([^`]+)`\s*\|/.exec(line);
    if (cell) cells.push(cell[1]!);
  }
  return cells;
}

const FILE_EXTENSIONS = /\.(ts|tsx|mjs|cjs|js|md|ya?ml|json|py|sh|toml|sql|html|css|svg)$/;

/**
 * Every code span of a Markdown text's prose that names a file or folder of the repository: no
 * spaces, a `/` in it, and either a known file extension or a first segment that is an entry of the
 * repository's root or of the page's folder (so `application/json` and `owner/name` are not paths).
 * Placeholders (`<name>`, `{id}`, `...`) are left out; a trailing `:line` or `#anchor` is dropped.
 */
export function codeSpanPaths(root: string, file: string, markdown: string): Link[] {
  const entries = (folder: string) => (existsSync(folder) && statSync(folder).isDirectory() ? readdirSync(folder) : []);
  const known = new Set([...entries(root), ...entries(resolve(root, dirname(file)))]);
  const paths: Link[] = [];
  for (const { text, line } of proseLines(markdown)) {
    for (const match of text.matchAll(/(?<!`)`([^`\s]+)`(?!`)/g)) {
      const span = match[1]!.replace(/^\.\//, '').replace(/(:\d+(-\d+)?|#[\w-]*)$/, '');
      if (!span.includes('/') || /^([a-z][a-z0-9+.-]*:|\/|@|~|\$|-)/i.test(span) || /[<>{}=?&]|\.\.\./.test(span)) continue;
      const first = span.split('/')[0]!;
      if (FILE_EXTENSIONS.test(span) || known.has(first)) paths.push({ file, line, target: span });
    }
  }
  return paths;
}

/** Why a path written in a code span names nothing (relative to the root, or to the page's folder), or undefined when it does. */
export function missingPathReason(root: string, link: Link, ignored: readonly string[]): string | undefined {
  const path = link.target.replace(/\/$/, '');
  if (ignored.some((prefix) => path === prefix.replace(/\/$/, '') || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`))) return undefined;
  const bases = [root, resolve(root, dirname(link.file))];
  if (bases.some((base) => pathExists(base, path))) return undefined;
  return `no file or folder ${path}`;
}

/** A path exists, its last segment possibly a `*` pattern (`contract-tests/oauth/*.test.ts`). */
function pathExists(base: string, path: string): boolean {
  const target = resolve(base, path);
  if (!path.includes('*')) return existsSync(target);
  const folder = dirname(target);
  const pattern = new RegExp(`^${target.slice(folder.length + 1).replace(/[.+^$()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return !folder.includes('*') && existsSync(folder) && readdirSync(folder).some((entry) => pattern.test(entry));
}

/** The simple entries of a .gitignore (no negations, no globs but a trailing `/`): build outputs and local state a checkout may lack. */
export function ignoredPrefixes(gitignore: string): string[] {
  return gitignore
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith('!') && !line.includes('*'));
}

/** The service's own metric names in a Prometheus exposition (`# TYPE task_service_... kind` lines). */
export function serviceMetricNames(exposition: string): string[] {
  return [...exposition.matchAll(/^# TYPE (task_service_\w+) /gm)].map((match) => match[1]!);
}

/** The first fenced code block of a language (`sh`) under a heading, or undefined. */
export function firstCodeBlockUnder(markdown: string, heading: string, language: string): string | undefined {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith('#') && line.replace(/^#+\s*/, '') === heading);
  if (start < 0) return undefined;
  const open = lines.findIndex((line, index) => index > start && line.trim() === `\`\`\`${language}`);
  const heads = lines.findIndex((line, index) => index > start && /^#{1,6}\s/.test(line));
  if (open < 0 || (heads >= 0 && heads < open)) return undefined;
  const close = lines.findIndex((line, index) => index > open && line.trim() === '```');
  return close < 0 ? undefined : lines.slice(open + 1, close).join('\n');
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(markdown: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((text, index) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(text)?.[1];
    if (marker && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    if (fence === undefined) lines.push({ text, line: index + 1 });
  });
  return lines;
}

/** A heading's text as rendered: links become their text, code spans their content, emphasis goes. */
function plainText(inline: string): string {
  return inline
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*{1,3})(\S(?:.*?\S)?)\1/g, '$2')
    // Underscores inside a word (`INVALID_REFRESH_TOKEN`) are no emphasis.
    .replace(/(?<!\w)(_{1,3})(\S(?:.*?\S)?)\1(?!\w)/g, '$2');
}
