import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThroughBrowser, newConfigDir, readCredentials, runCli, type CliOptions } from '../support/cli.js';
import { awayFromMinuteEnd, sleep } from '../support/limits.js';
import { refresh } from '../support/oauth.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

describe('taskctl with access tokens living 2 seconds', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { JWT_ACCESS_EXPIRES: '2' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function expiredLogin(): Promise<CliOptions> {
    const { email } = await signedInClient(server);
    const as = { configDir: newConfigDir(), server };
    await loginThroughBrowser(server, as.configDir, email);
    await sleep(2_500);
    return as;
  }

  it('refreshes (rotating) once the access token has expired, and saves the new pair', async () => {
    const as = await expiredLogin();
    const before = readCredentials(as.configDir).logins[server.baseUrl]!;
    const run = await runCli(['tasks', 'list', '--json'], as);
    expect(run.code, run.stderr).toBe(0);
    const after = readCredentials(as.configDir).logins[server.baseUrl]!;
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.accessToken).not.toBe(before.accessToken);
    // The old refresh token was rotated: presenting it again is a reuse.
    expect((await refresh(server, 'taskctl', before.refreshToken)).body.error).toBe('invalid_grant');
  });

  it('survives several taskctl processes refreshing the same login at once: none is signed out', async () => {
    const as = await expiredLogin();
    const racing = await Promise.all(Array.from({ length: 4 }, () => runCli(['tasks', 'list', '--json'], as)));
    for (const run of racing) expect(run.code, run.stderr).toBe(0);
    // Still signed in afterwards, through the saved (rotated) pair: no reuse revoked the family.
    await sleep(2_500);
    const later = await runCli(['whoami', '--json'], as);
    expect(later.code, later.stderr).toBe(0);
  });
});

describe('taskctl when rate limited', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT_CLIENT_BURST_PER_MINUTE: '3' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('names the window and the wait, gives up past --max-wait with a non-zero exit, and sends no request in a loop', async () => {
    const { email } = await signedInClient(server);
    const as = { configDir: newConfigDir(), server };
    await loginThroughBrowser(server, as.configDir, email);
    await awayFromMinuteEnd(15);
    for (let i = 0; i < 3; i++) expect((await runCli(['tasks', 'list', '--json'], as)).code).toBe(0);

    const limited = await runCli(['tasks', 'list', '--max-wait', '1'], as);
    expect(limited.code).toBe(1);
    expect(limited.stderr).toMatch(/Rate limited: taskctl's own request budget on this account \(client-burst: requests per minute\) is used up\. The server asks to wait \d+ s/);
    expect(limited.elapsedMs).toBeLessThan(5_000);

    // Counted on the server: exactly one refused listTasks, not a loop of them.
    const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
    const refused = /^task_service_http_request_duration_seconds_count\{operation="listTasks",status="429"\} (\d+)/m.exec(metrics);
    expect(Number(refused?.[1])).toBe(1);
  });
});
