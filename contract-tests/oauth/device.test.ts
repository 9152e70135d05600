import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awayFromMinuteEnd } from '../support/limits.js';
import {
  approveDevice,
  deviceCode,
  openDevicePage,
  pollDevice,
  requestDeviceCode,
  submitDevicePage,
} from '../support/oauth-device.js';
import { bearer, expectOAuthError, readPage, refresh, registeredApp } from '../support/oauth.js';
import { PASSWORD, signedInClient, startServer, uniqueEmail, type TestServer } from '../support/server.js';

const MAX_FAILED = 2;

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { LOGIN_MAX_FAILED_ATTEMPTS: String(MAX_FAILED), LOGIN_LOCKOUT_MINUTES: '5' } });
});
afterAll(async () => {
  await server?.stop();
});

describe('the device authorization grant (RFC 8628)', () => {
  it('is advertised in the authorisation server metadata', async () => {
    const metadata = (await (await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata.device_authorization_endpoint).toBe(`${server.baseUrl}/oauth/device_authorization`);
    expect(metadata.grant_types_supported).toContain('urn:ietf:params:oauth:grant-type:device_code');
  });

  it('hands taskctl a device code and a short user code to show, with where to approve it', async () => {
    const { response, body } = await requestDeviceCode(server);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(body).toEqual({
      device_code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      user_code: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
      verification_uri: `${server.baseUrl}/oauth/device`,
      verification_uri_complete: `${server.baseUrl}/oauth/device?user_code=${body.user_code as string}`,
      expires_in: 600,
      interval: 5,
    });
  });

  it('refuses unknown clients, registered apps and unknown scopes', async () => {
    expectOAuthError(await requestDeviceCode(server, { client_id: 'nobody' }), 401, 'invalid_client');
    expectOAuthError(await requestDeviceCode(server, { client_id: await registeredApp(server) }), 400, 'unauthorized_client');
    expectOAuthError(await requestDeviceCode(server, { client_id: 'taskctl', scope: 'tasks:read admin' }), 400, 'invalid_scope');
    expectOAuthError(await requestDeviceCode(server, {}), 400, 'invalid_request');
  });

  it('answers authorization_pending until approved, then tokens once, for the scopes asked', async () => {
    const { email, client: web } = await signedInClient(server);
    const device = await deviceCode(server, 'tasks:read');
    expectOAuthError(await pollDevice(server, device.device_code), 400, 'authorization_pending');

    // Typed by hand: lower case, no dash.
    const page = await openDevicePage(server, device.user_code.toLowerCase().replace('-', ''));
    expect(page.response.status).toBe(200);
    expect(page.html).toContain('taskctl (command line)');
    expect(page.html).toContain(device.user_code);
    expect(page.response.headers.get('x-frame-options')).toBe('DENY');
    expect(page.response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const done = await submitDevicePage(server, page, { email, password: PASSWORD, decision: 'allow' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Device connected');

    const tokens = await pollDevice(server, device.device_code);
    expect(tokens.response.status).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', scope: 'tasks:read', refresh_token: expect.any(String) });
    const me = await fetch(`${server.baseUrl}/me`, { headers: bearer(tokens.body.access_token as string) });
    expect(((await me.json()) as { email: string }).email).toBe(email);
    expect((await fetch(`${server.baseUrl}/tasks`, { method: 'POST', headers: { ...bearer(tokens.body.access_token as string), 'content-type': 'application/json' }, body: '{"title":"x"}' })).status).toBe(403);

    // The code works once; the refresh token rotates like any other taskctl refresh token.
    expectOAuthError(await pollDevice(server, device.device_code), 400, 'invalid_grant');
    expect((await refresh(server, 'taskctl', tokens.body.refresh_token as string)).response.status).toBe(200);
    // The person sees the app among their authorisations.
    const authorizations = await web.listAuthorizations();
    expect(authorizations.data?.items.map((item) => item.clientId)).toEqual(['taskctl']);
  });

  it('gives tokens to exactly one of several parallel polls of an approved code', async () => {
    const { email } = await signedInClient(server);
    const device = await deviceCode(server);
    await approveDevice(server, device.verification_uri_complete, email, PASSWORD);
    const polls = await Promise.all(Array.from({ length: 6 }, () => pollDevice(server, device.device_code)));
    expect(polls.filter((poll) => poll.response.status === 200)).toHaveLength(1);
    for (const poll of polls.filter((p) => p.response.status !== 200)) expect(poll.body.error).toBe('invalid_grant');
  });

  it('stops an approved code from working once the account withdraws the app, and revokes what it issued before', async () => {
    const { email, client: web } = await signedInClient(server);
    const redeemed = await deviceCode(server);
    await approveDevice(server, redeemed.verification_uri_complete, email, PASSWORD);
    const tokens = await pollDevice(server, redeemed.device_code);
    expect(tokens.response.status).toBe(200);
    const approved = await deviceCode(server);
    await approveDevice(server, approved.verification_uri_complete, email, PASSWORD);

    expect((await web.revokeAuthorization('taskctl')).response.status).toBe(204);
    expectOAuthError(await pollDevice(server, approved.device_code), 400, 'invalid_grant');
    expect((await refresh(server, 'taskctl', tokens.body.refresh_token as string)).body.error).toBe('invalid_grant');
  });

  it('answers slow_down to a poll within the interval, and the interval grows by 5 seconds', async () => {
    const device = await deviceCode(server);
    expectOAuthError(await pollDevice(server, device.device_code), 400, 'authorization_pending');
    const tooFast = await pollDevice(server, device.device_code);
    expectOAuthError(tooFast, 400, 'slow_down');
    expect(tooFast.body.error_description).toContain('10 seconds');
  });

  it('answers access_denied once the person denies, without signing in', async () => {
    const device = await deviceCode(server);
    const page = await openDevicePage(server, device.user_code);
    const done = await submitDevicePage(server, page, { decision: 'deny' });
    expect(await done.text()).toContain('Request denied');
    expectOAuthError(await pollDevice(server, device.device_code), 400, 'access_denied');
    // Decided: the code cannot be approved afterwards.
    const again = await openDevicePage(server, device.user_code);
    expect(again.html).toContain('not valid');
  });

  it('answers expired_token past the code lifetime, and the page no longer takes the code', async () => {
    const device = await deviceCode(server);
    const page = await openDevicePage(server, device.user_code);
    await server.database.knex()('oauth_device_codes').update({ expires_at: Date.now() - 1 }).where('expires_at', '>', Date.now() + 590_000);
    expectOAuthError(await pollDevice(server, device.device_code), 400, 'expired_token');
    const { email } = await signedInClient(server);
    const late = await submitDevicePage(server, page, { email, password: PASSWORD, decision: 'allow' });
    expect(late.status).toBe(200);
    expect(await late.text()).toContain('not valid');
    expect((await openDevicePage(server, device.user_code)).html).toContain('not valid');
  });

  it('refuses another client polling the code, and unknown codes', async () => {
    const device = await deviceCode(server);
    expectOAuthError(await pollDevice(server, device.device_code, await registeredApp(server)), 400, 'unauthorized_client');
    expectOAuthError(await pollDevice(server, 'not-a-device-code'), 400, 'invalid_grant');
  });
});

describe('the verification page', () => {
  it('asks for the code when none is given, and says so when a code is wrong', async () => {
    const blank = await openDevicePage(server);
    expect(blank.response.status).toBe(200);
    expect(blank.html).toContain('Enter the code your device shows');
    const wrong = await openDevicePage(server, 'BCDF-GHJK');
    expect(wrong.html).toContain('not valid');
    expect(wrong.html).toContain('value="BCDF-GHJK"');
  });

  it('refuses a form without its cookie, or with a token rendered for another code (400, nothing approved)', async () => {
    const { email } = await signedInClient(server);
    const device = await deviceCode(server);
    const other = await deviceCode(server);
    const page = await openDevicePage(server, device.user_code);
    const noCookie = await submitDevicePage(server, page, { email, password: PASSWORD, decision: 'allow' }, { cookie: null });
    expect(noCookie.status).toBe(400);
    const moved = await submitDevicePage(server, page, { email, password: PASSWORD, decision: 'allow' }, { fields: { user_code: other.user_code } });
    expect(moved.status).toBe(400);
    expectOAuthError(await pollDevice(server, device.device_code), 400, 'authorization_pending');
    expectOAuthError(await pollDevice(server, other.device_code), 400, 'authorization_pending');
  });

  it('shows the page again on a wrong password, and locks the email as /auth/login does', async () => {
    const email = uniqueEmail();
    await server.client().registerAccount({ email, password: PASSWORD });
    const device = await deviceCode(server);
    let page = await openDevicePage(server, device.user_code);
    for (let i = 0; i < MAX_FAILED; i++) {
      page = await readPage(await submitDevicePage(server, page, { email, password: 'wrong password!', decision: 'allow' }));
      expect(page.response.status).toBe(200);
      expect(page.html).toContain('The email or password is wrong.');
    }
    const locked = await readPage(await submitDevicePage(server, page, { email, password: PASSWORD, decision: 'allow' }));
    expect(locked.response.status).toBe(429);
    expect(Number(locked.response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.html).toContain('locked');
    const login = await server.client().login({ email, password: PASSWORD });
    expect(login.error?.code).toBe('ACCOUNT_LOCKED');
    expectOAuthError(await pollDevice(server, device.device_code), 400, 'authorization_pending');
  });
});

describe('budgets of the device endpoints', () => {
  it('spend the login budget on the page sign-in, and strict budgets of their own on asking for and entering codes', async () => {
    const limited = await startServer({ env: { RATE_LIMIT_STRICT_BURST_PER_MINUTE: '2' } });
    try {
      await awayFromMinuteEnd();
      const device = await deviceCode(limited);
      await deviceCode(limited);
      expect((await requestDeviceCode(limited)).response.status).toBe(429);

      const page = await openDevicePage(limited, device.user_code);
      await openDevicePage(limited, device.user_code);
      expect((await fetch(`${limited.baseUrl}/oauth/device?user_code=${device.user_code}`)).status).toBe(429);

      const email = uniqueEmail();
      for (let i = 0; i < 2; i++) await submitDevicePage(limited, page, { email, password: 'wrong password!', decision: 'allow' });
      const login = await fetch(`${limited.baseUrl}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      expect(login.status).toBe(429);
      expect(((await login.json()) as { code: string }).code).toBe('RATE_LIMIT_EXCEEDED');
    } finally {
      await limited.stop();
    }
  });
});
