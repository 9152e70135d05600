import type { ServerResponse } from 'node:http';
import { startHttpFake, type HttpFake } from './http-fake.js';

// A stand-in for the GitHub REST API (2022-11-28): GET /user and GET /issues with Link pagination,
// answers shaped as docs.github.com/en/rest/users/users#get-the-authenticated-user and
// docs.github.com/en/rest/issues/issues#list-issues-assigned-to-the-authenticated-user describe.

export interface FakeGithubUser {
  id: number;
  login: string;
}

export interface FakeIssueInput {
  number: number;
  title: string;
  body?: string | null;
  state?: 'open' | 'closed';
  closedAt?: string | null;
  milestoneDueOn?: string | null;
  /** Makes this entry a pull request, as /issues also lists them. */
  pullRequest?: boolean;
}

export interface FakeGithub extends HttpFake {
  /** The API root to connect with (`baseUrl`). */
  baseUrl: string;
  addAccount: (token: string, user: FakeGithubUser, issues?: FakeIssueInput[]) => void;
  setIssues: (token: string, issues: FakeIssueInput[]) => void;
  /** Every later request with this token gets GitHub's primary rate-limit answer (403, remaining 0). */
  exhaustRateLimit: (token: string, resetInSeconds: number) => void;
  /** Requests to /issues with this token are accepted and never answered (until called with false). */
  hangIssues: (token: string, hang?: boolean) => void;
  /** Requests to /issues with this token are answered after this many milliseconds. */
  delayIssues: (token: string, ms: number) => void;
  /** Requests to /user with this token are held until this many have arrived, then answered together. */
  gatherUserRequests: (token: string, count: number) => void;
}

interface Account {
  user: FakeGithubUser;
  issues: FakeIssueInput[];
  rateLimitResetAt?: number;
  hang?: boolean;
  delayMs?: number;
  heldUserAnswers?: { count: number; answers: (() => void)[] };
}

export async function startFakeGithub(): Promise<FakeGithub> {
  const accounts = new Map<string, Account>();
  let origin = '';
  const fake = await startHttpFake((req, res, url) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const account = token ? accounts.get(token) : undefined;
    if (!account) return json(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
    if (account.rateLimitResetAt !== undefined) {
      return json(
        res,
        403,
        {
          message: `API rate limit exceeded for user ID ${account.user.id}. If you reach out to GitHub Support for help, please include the request ID 0000:0000:0000000:0000000:00000000.`,
          documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
          status: '403',
        },
        rateLimitHeaders(0, account.rateLimitResetAt),
      );
    }
    if (url.pathname === '/user') {
      const answer = () => json(res, 200, userBody(account.user, origin), rateLimitHeaders(4999));
      const held = account.heldUserAnswers;
      if (!held) return answer();
      held.answers.push(answer);
      if (held.answers.length >= held.count) {
        account.heldUserAnswers = undefined;
        held.answers.forEach((release) => release());
      }
      return;
    }
    if (url.pathname === '/issues') {
      if (account.hang) return;
      if (account.delayMs) {
        const answer = () => answerIssues(res, url, account);
        return void setTimeout(answer, account.delayMs);
      }
      return answerIssues(res, url, account);
    }
    return json(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
  });

  function answerIssues(res: ServerResponse, url: URL, account: Account): void {
      const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
      const pages = Math.max(1, Math.ceil(account.issues.length / perPage));
      const slice = account.issues.slice((page - 1) * perPage, page * perPage);
      const link = linkHeader(origin, url, page, pages);
    json(res, 200, slice.map((issue) => issueBody(issue, origin, account.user)), { ...rateLimitHeaders(4998), ...(link ? { link } : {}) });
  }
  origin = fake.origin;
  return {
    ...fake,
    baseUrl: fake.origin,
    addAccount: (token, user, issues = []) => void accounts.set(token, { user, issues }),
    setIssues: (token, issues) => {
      const account = accounts.get(token);
      if (account) account.issues = issues;
    },
    exhaustRateLimit: (token, resetInSeconds) => {
      const account = accounts.get(token);
      if (account) account.rateLimitResetAt = Math.floor(Date.now() / 1000) + resetInSeconds;
    },
    hangIssues: (token, hang = true) => {
      const account = accounts.get(token);
      if (account) account.hang = hang;
    },
    delayIssues: (token, ms) => {
      const account = accounts.get(token);
      if (account) account.delayMs = ms;
    },
    gatherUserRequests: (token, count) => {
      const account = accounts.get(token);
      if (account) account.heldUserAnswers = { count, answers: [] };
    },
  };
}

export function manyIssues(count: number, titlePrefix = 'Issue'): FakeIssueInput[] {
  return Array.from({ length: count }, (_, i) => ({ number: i + 1, title: `${titlePrefix} ${i + 1}`, body: `Body of issue ${i + 1}` }));
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-github-api-version-selected': '2022-11-28',
    'x-github-media-type': 'github.v3; format=json',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

function rateLimitHeaders(remaining: number, resetAt = Math.floor(Date.now() / 1000) + 3600): Record<string, string> {
  return {
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(resetAt),
    'x-ratelimit-used': String(5000 - remaining),
    'x-ratelimit-resource': 'core',
  };
}

function linkHeader(origin: string, url: URL, page: number, pages: number): string | undefined {
  if (pages <= 1) return undefined;
  const at = (n: number) => {
    const target = new URL(`${url.pathname}${url.search}`, origin);
    target.searchParams.set('page', String(n));
    return `<${target.href}>`;
  };
  const links: string[] = [];
  if (page > 1) links.push(`${at(page - 1)}; rel="prev"`);
  if (page < pages) links.push(`${at(page + 1)}; rel="next"`, `${at(pages)}; rel="last"`);
  if (page > 1) links.push(`${at(1)}; rel="first"`);
  return links.join(', ');
}

function userBody(user: FakeGithubUser, origin: string) {
  return {
    login: user.login,
    id: user.id,
    node_id: Buffer.from(`04:User${user.id}`).toString('base64'),
    avatar_url: `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
    gravatar_id: '',
    url: `${origin}/users/${user.login}`,
    html_url: `https://github.com/${user.login}`,
    type: 'User',
    site_admin: false,
    name: null,
    company: null,
    blog: '',
    location: null,
    email: null,
    hireable: null,
    bio: null,
    twitter_username: null,
    public_repos: 3,
    public_gists: 0,
    followers: 1,
    following: 0,
    created_at: '2015-03-04T10:20:30Z',
    updated_at: '2024-05-06T07:08:09Z',
  };
}

const REPO = 'octo-org/octo-repo';

function issueBody(issue: FakeIssueInput, origin: string, assignee: FakeGithubUser) {
  const id = 1_000_000 + issue.number;
  const apiUrl = `${origin}/repos/${REPO}/issues/${issue.number}`;
  const htmlUrl = `https://github.com/${REPO}/${issue.pullRequest ? 'pull' : 'issues'}/${issue.number}`;
  const state = issue.state ?? 'open';
  const person = { login: assignee.login, id: assignee.id, type: 'User', site_admin: false };
  return {
    url: apiUrl,
    repository_url: `${origin}/repos/${REPO}`,
    labels_url: `${apiUrl}/labels{/name}`,
    comments_url: `${apiUrl}/comments`,
    events_url: `${apiUrl}/events`,
    html_url: htmlUrl,
    id,
    node_id: Buffer.from(`I_${id}`).toString('base64'),
    number: issue.number,
    title: issue.title,
    user: person,
    labels: [],
    state,
    locked: false,
    assignee: person,
    assignees: [person],
    milestone: issue.milestoneDueOn
      ? { url: `${origin}/repos/${REPO}/milestones/1`, id: 1, number: 1, title: 'v1.0', state: 'open', due_on: issue.milestoneDueOn }
      : null,
    comments: 0,
    created_at: '2024-01-02T03:04:05Z',
    updated_at: '2024-02-03T04:05:06Z',
    closed_at: state === 'closed' ? (issue.closedAt ?? '2024-03-04T05:06:07Z') : null,
    author_association: 'OWNER',
    active_lock_reason: null,
    body: issue.body ?? null,
    state_reason: state === 'closed' ? 'completed' : null,
    ...(issue.pullRequest
      ? {
          draft: false,
          pull_request: {
            url: `${origin}/repos/${REPO}/pulls/${issue.number}`,
            html_url: htmlUrl,
            diff_url: `${htmlUrl}.diff`,
            patch_url: `${htmlUrl}.patch`,
            merged_at: null,
          },
        }
      : {}),
    repository: { id: 1296269, name: 'octo-repo', full_name: REPO, private: false },
  };
}
