import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awayFromMinuteEnd } from '../support/limits.js';
import {
  APP_REDIRECT,
  TASKCTL_REDIRECT,
  authorizeUrl,
  openConsentPage,
  pkcePair,
  readPage,
  redirectParams,
  registeredApp,
  submitConsent,
} from '../support/oauth.js';
import { PASSWORD, signedInClient, startServer, uniqueEmail, type TestServer } from '../support/server.js';

const MAX_FAILED = 2;

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { LOGIN_MAX_FAILED_ATTEMPTS: String(MAX_FAILED), LOGIN_LOCKOUT_MINUTES: '5' } });
});
afterAll(async () => {
  await server?.stop();
});

const taskctlPage = (extra: Record<string, string> = {}) =>
  openConsentPage(server, { client_id: 'taskctl', redirect_uri: TASKCTL_REDIRECT, code_challenge: pkcePair().challenge, state: 'st', ...extra });

function expectErrorPage(response: Response, html: string) {
  expect(response.status).toBe(400);
  expect(response.headers.get('location')).toBeNull();
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  expect(html).toContain('This authorisation request cannot go on');
}

describe('the sign-in and consent page', () => {
  it('is HTML that cannot be framed, loads nothing, and sets the CSRF cookie', async () => {
    const page = await taskctlPage();
    expect(page.response.status).toBe(200);
    const csp = page.response.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self' http://127.0.0.1:53682");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.response.headers.get('x-frame-options')).toBe('DENY');
    expect(page.response.headers.get('cache-control')).toBe('no-store');
    expect(page.response.headers.get('referrer-policy')).toBe('no-referrer');
    const cookie = page.response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^oauth_csrf=[\w-]{43}; Max-Age=600; HttpOnly; SameSite=Strict$/);
    expect(page.html).toContain('Create, change and delete your tasks');
    expect(page.fields).toMatchObject({ client_id: 'taskctl', redirect_uri: TASKCTL_REDIRECT, state: 'st', scope: 'tasks:read tasks:write connectors:read connectors:write' });
  });

  it('escapes what the app and the request put on the page', async () => {
    const hostile = '"><script>alert(1)</script>';
    const clientId = await registeredApp(server, { client_name: `<b>Evil</b> ${hostile}` });
    const page = await openConsentPage(server, { client_id: clientId, redirect_uri: APP_REDIRECT, code_challenge: pkcePair().challenge, state: hostile });
    expect(page.response.status).toBe(200);
    expect(page.html).not.toContain('<script>');
    expect(page.html).not.toContain('<b>Evil');
    expect(page.html).toContain('&#60;b&#62;Evil&#60;/b&#62;');
    expect(page.fields.state).toBe(hostile);
  });

  it('an unknown client, or a redirect_uri not registered for it, gets an error page and is never redirected', async () => {
    const clientId = await registeredApp(server);
    const challenge = pkcePair().challenge;
    for (const params of [
      { client_id: 'no-such-app', redirect_uri: APP_REDIRECT, code_challenge: challenge },
      { client_id: clientId, redirect_uri: 'https://attacker.example.com/callback', code_challenge: challenge },
      { client_id: clientId, redirect_uri: `${APP_REDIRECT}/more`, code_challenge: challenge },
      { client_id: 'taskctl', redirect_uri: 'http://127.0.0.1:53682/elsewhere', code_challenge: challenge },
      { client_id: 'taskctl', redirect_uri: 'http://localhost:53682/callback', code_challenge: challenge },
      // Even with other errors in the request: an unverified redirect URI is never used.
      { client_id: clientId, redirect_uri: 'https://attacker.example.com/callback', response_type: 'token' },
    ]) {
      const page = await openConsentPage(server, params);
      expectErrorPage(page.response, page.html);
    }
    const missing = await fetch(`${server.baseUrl}/oauth/authorize?client_id=taskctl&response_type=code`, { redirect: 'manual' });
    expectErrorPage(missing, await missing.text());
  });

  it('other problems go back to the verified redirect URI with the error and the state', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ scope: 'tasks:read admin' }, 'invalid_scope'],
      [{ code_challenge: 'short' }, 'invalid_request'],
    ];
    for (const [extra, error] of cases) {
      const response = await fetch(authorizeUrl(server, { client_id: 'taskctl', redirect_uri: TASKCTL_REDIRECT, code_challenge: pkcePair().challenge, state: 'st', ...extra }), {
        redirect: 'manual',
      });
      expect(response.status).toBe(302);
      expect(redirectParams(response, TASKCTL_REDIRECT)).toEqual({ error, error_description: expect.any(String), state: 'st', iss: server.baseUrl });
    }
  });

  it('an app that registered a scope cannot ask for more', async () => {
    const clientId = await registeredApp(server, { scope: 'tasks:read' });
    const response = await fetch(authorizeUrl(server, { client_id: clientId, redirect_uri: APP_REDIRECT, code_challenge: pkcePair().challenge, scope: 'tasks:write' }), {
      redirect: 'manual',
    });
    expect(redirectParams(response, APP_REDIRECT)).toMatchObject({ error: 'invalid_scope' });
  });

  it('deny sends the person back with access_denied and the state, without signing in', async () => {
    const page = await taskctlPage();
    const answer = await submitConsent(server, page, { decision: 'deny' });
    expect(answer.status).toBe(303);
    expect(redirectParams(answer, TASKCTL_REDIRECT)).toEqual({
      error: 'access_denied',
      error_description: expect.any(String),
      state: 'st',
      iss: server.baseUrl,
    });
  });
});

describe('the consent form is CSRF-protected', () => {
  it('a missing, forged or foreign CSRF token, or a missing cookie, gets an error page and no code', async () => {
    const { email } = await signedInClient(server);
    const page = await taskctlPage();
    const other = await taskctlPage();
    const allow = { email, password: PASSWORD, decision: 'allow' as const };
    const attempts = [
      await submitConsent(server, page, allow, { omit: ['csrf_token'] }),
      await submitConsent(server, page, allow, { fields: { csrf_token: `${Math.floor(Date.now() / 1000)}.${'A'.repeat(43)}` } }),
      await submitConsent(server, page, allow, { cookie: null }),
      // The other page's cookie: a token only works with the cookie it was minted for.
      await submitConsent(server, page, allow, { cookie: other.cookie }),
      // A token minted for other parameters (another challenge, more scopes) does not carry over.
      await submitConsent(server, page, allow, { fields: { code_challenge: other.fields.code_challenge! } }),
      await submitConsent(server, page, allow, { fields: { scope: 'tasks:read' } }),
      await submitConsent(server, page, allow, { fields: { csrf_token: other.fields.csrf_token! }, cookie: page.cookie }),
    ];
    for (const attempt of attempts) expectErrorPage(attempt, await attempt.text());
    // The untouched form still works.
    expect(redirectParams(await submitConsent(server, page, allow), TASKCTL_REDIRECT).code).toBeDefined();
  });

  it('a second page in the same browser keeps the cookie, so both forms stay valid', async () => {
    const { email } = await signedInClient(server);
    const first = await taskctlPage();
    const second = await openConsentPage(
      server,
      { client_id: 'taskctl', redirect_uri: TASKCTL_REDIRECT, code_challenge: pkcePair().challenge, state: 'two' },
      first.cookie,
    );
    expect(second.response.headers.get('set-cookie')?.split(';')[0]).toBe(first.cookie);
    for (const page of [first, second]) {
      const answer = await submitConsent(server, page, { email, password: PASSWORD, decision: 'allow' });
      expect(answer.status).toBe(303);
    }
  });

  it('a form older than 10 minutes is refused', async () => {
    const page = await taskctlPage();
    const [, mac] = page.fields.csrf_token!.split('.');
    const stale = `${Math.floor(Date.now() / 1000) - 601}.${mac}`;
    const answer = await submitConsent(server, page, { decision: 'deny' }, { fields: { csrf_token: stale } });
    expectErrorPage(answer, await answer.text());
  });
});

describe('the consent page signs in like /auth/login', () => {
  it('a wrong password shows the page again with an error and a fresh form; the right one then gets a code', async () => {
    const { email } = await signedInClient(server);
    const page = await taskctlPage();
    const wrong = await readPage(await submitConsent(server, page, { email, password: 'not the password', decision: 'allow' }));
    expect(wrong.response.status).toBe(200);
    expect(wrong.html).toContain('The email or password is wrong.');
    expect(wrong.fields.csrf_token).toBeDefined();
    expect(wrong.html).toContain(`value="${email}"`);
    const right = await submitConsent(server, { ...wrong, cookie: page.cookie }, { email, password: PASSWORD, decision: 'allow' });
    expect(redirectParams(right, TASKCTL_REDIRECT).code).toBeDefined();
  });

  it(`after ${MAX_FAILED} failures the email is locked for the page and for /auth/login alike, even with the right password`, async () => {
    const { email } = await signedInClient(server);
    const page = await taskctlPage();
    for (let i = 0; i < MAX_FAILED; i++) {
      const failed = await submitConsent(server, page, { email, password: 'wrong', decision: 'allow' });
      expect(failed.status).toBe(200);
      await failed.body?.cancel();
    }
    const locked = await readPage(await submitConsent(server, page, { email, password: PASSWORD, decision: 'allow' }));
    expect(locked.response.status).toBe(429);
    expect(locked.response.headers.get('content-type')).toMatch(/^text\/html/);
    const retryAfter = Number(locked.response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(4 * 60);
    expect(retryAfter).toBeLessThanOrEqual(5 * 60);
    expect(locked.html).toContain('locked');
    expect(locked.response.headers.get('location')).toBeNull();

    const login = await server.client().login({ email, password: PASSWORD });
    expect(login.response.status).toBe(429);
    expect(login.error?.body).toMatchObject({ code: 'ACCOUNT_LOCKED' });
  });

  it('failures on /auth/login lock the consent page too (one counter per email)', async () => {
    const email = uniqueEmail();
    for (let i = 0; i < MAX_FAILED; i++) await server.client().login({ email, password: 'wrong' });
    const page = await taskctlPage();
    const locked = await submitConsent(server, page, { email, password: PASSWORD, decision: 'allow' });
    expect(locked.status).toBe(429);
    await locked.body?.cancel();
  });
});

describe('the consent page spends the strict login budget', () => {
  it('sign-ins on the page and on /auth/login share one budget per client IP', { timeout: 90_000 }, async () => {
    const limited = await startServer({ env: { RATE_LIMIT_STRICT_BURST_PER_MINUTE: '3', RATE_LIMIT_STRICT_SUSTAINED_PER_HOUR: '100' } });
    try {
      // register spends its own strict budget; the login one starts full.
      const { email } = await signedInClient(limited);
      await awayFromMinuteEnd(20);
      const page = await openConsentPage(limited, { client_id: 'taskctl', redirect_uri: TASKCTL_REDIRECT, code_challenge: pkcePair().challenge });
      const statuses: number[] = [];
      for (let i = 0; i < 2; i++) {
        const answer = await submitConsent(limited, page, { email, password: 'wrong', decision: 'allow' });
        statuses.push(answer.status);
        await answer.body?.cancel();
      }
      statuses.push((await limited.client().login({ email, password: PASSWORD })).response.status);
      const fourth = await submitConsent(limited, page, { email, password: PASSWORD, decision: 'allow' });
      statuses.push(fourth.status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(await fourth.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', window: 'strict-burst' });
    } finally {
      await limited.stop();
    }
  });
});
