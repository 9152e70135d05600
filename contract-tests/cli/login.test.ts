import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliJson, loginThroughBrowser, loginWithDevice, newConfigDir, readCredentials, runCli, startCli } from '../support/cli.js';
import { readPage, refresh, submitConsent } from '../support/oauth.js';
import { PASSWORD, signedInClient, startServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('taskctl login (browser, loopback redirect)', () => {
  it('signs in with the test playing the browser, says the tab can be closed, and keeps the tokens in a 0600 file', async () => {
    const { email } = await signedInClient(server);
    const configDir = newConfigDir();
    const { run, page } = await loginThroughBrowser(server, configDir, email);
    expect(page).toContain('You can close this tab');
    expect(run.stdout).toContain(`Signed in to ${server.baseUrl}`);

    const file = join(configDir, 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = readCredentials(configDir);
    expect(saved.defaultServer).toBe(server.baseUrl);
    expect(saved.logins[server.baseUrl]).toMatchObject({ clientId: 'taskctl', accessToken: expect.any(String), refreshToken: expect.any(String) });
    // Every scope the server offers, so `taskctl tokens` works too.
    expect(saved.logins[server.baseUrl]!.scope.split(' ').sort()).toEqual(['connectors:read', 'connectors:write', 'tasks:read', 'tasks:write', 'tokens:manage', 'webhooks:manage']);

    const me = await cliJson<{ email: string }>(['whoami'], { configDir, server });
    expect(me.email).toBe(email);
    // The saved login's server is the default: no --server, no TASKCTL_SERVER.
    expect((await runCli(['whoami'], { configDir })).stdout).toContain(email);
  });

  it('turns away a callback of another sign-in (wrong state) and goes on waiting for the right one', async () => {
    const { email } = await signedInClient(server);
    const configDir = newConfigDir();
    const cli = startCli(['login', '--no-browser', '--scope', 'tasks:read'], { configDir, server });
    const [url] = await cli.waitForStderr(/http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+/);
    const consent = await readPage(await fetch(url));
    const back = await submitConsent(server, consent, { email, password: PASSWORD, decision: 'allow' });
    const callback = new URL(back.headers.get('location')!);

    const forged = new URL(callback);
    forged.searchParams.set('state', 'someone-elses-state');
    const turnedAway = await fetch(forged);
    expect(turnedAway.status).toBe(400);
    expect(await turnedAway.text()).toContain('does not belong to the sign-in');

    expect((await fetch(callback)).status).toBe(200);
    const run = await cli.exited;
    expect(run.code, run.stderr).toBe(0);
    expect(readCredentials(configDir).logins[server.baseUrl]!.scope).toBe('tasks:read');
  });

  it('exits 1 and keeps no tokens when the person denies in the browser', async () => {
    const configDir = newConfigDir();
    const cli = startCli(['login', '--no-browser'], { configDir, server });
    const [url] = await cli.waitForStderr(/http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+/);
    const back = await submitConsent(server, await readPage(await fetch(url)), { decision: 'deny' });
    const landing = await fetch(back.headers.get('location')!);
    expect(await landing.text()).toContain('denied');
    const run = await cli.exited;
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('denied');
    expect((await runCli(['whoami'], { configDir, server })).code).toBe(4);
  });
});

describe('taskctl login --device', () => {
  it('shows a code, and is signed in once the person approves it on the verification page', async () => {
    const { email } = await signedInClient(server);
    const configDir = newConfigDir();
    const run = await loginWithDevice(server, configDir, email);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`${server.baseUrl}/oauth/device`);
    expect(statSync(join(configDir, 'credentials.json')).mode & 0o777).toBe(0o600);
    expect((await cliJson<{ email: string }>(['whoami'], { configDir, server })).email).toBe(email);
  });
});

describe('taskctl logout', () => {
  it('revokes the tokens on the server and forgets them; every command then exits 4', async () => {
    const { email } = await signedInClient(server);
    const configDir = newConfigDir();
    await loginThroughBrowser(server, configDir, email);
    const { refreshToken } = readCredentials(configDir).logins[server.baseUrl]!;

    const out = await runCli(['logout'], { configDir, server });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('Signed out');
    expect(readCredentials(configDir).logins).toEqual({});
    const revoked = await refresh(server, 'taskctl', refreshToken);
    expect(revoked.body.error).toBe('invalid_grant');

    for (const args of [['tasks', 'list'], ['whoami'], ['usage', '--json']]) {
      const run = await runCli(args, { configDir, server });
      expect(run.code).toBe(4);
      expect(run.stderr).toContain('taskctl login');
    }
    expect((await runCli(['logout'], { configDir, server })).code).toBe(0);
  });

  it('exits 4 with a clear message when never signed in', async () => {
    const run = await runCli(['tasks', 'list'], { configDir: newConfigDir(), server });
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/Not signed in to .*taskctl login/);
  });
});
