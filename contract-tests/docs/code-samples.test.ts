// Every x-codeSamples entry of the served document, run against the real server so none rots: one
// server, one account (ada@example.com, as the samples name her) with a task, an iCalendar feed account
// and a webhook; a sample that destroys or spends what it is given gets its own, fresh for each run.
import { readFileSync } from 'node:fs';
import type { TaskClient } from '@task-service/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loginWithDevice, newConfigDir } from '../support/cli.js';
import { concurrencyLimit, pythonAvailable, runSample, samplesOf, typecheck, waitForText, type SampleInput, type SampleOperation } from '../support/code-samples.js';
import { syncAndWait } from '../support/connectors.js';
import { startFakeIcalFeeds, type FakeIcalFeeds } from '../support/fakes/ical.fake.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/fakes/webhook-receiver.fake.js';
import { appTokens } from '../support/mcp.js';
import { approveDevice, deviceCode, openDevicePage, pollDevice } from '../support/oauth-device.js';
import { openConsentPage, readPage, submitConsent } from '../support/oauth.js';
import { dataOf, PASSWORD, startServer, uniqueEmail, type TestServer } from '../support/server.js';

const ADA = 'ada@example.com';
/** The PKCE challenge, redirect and state the authorisation samples send. */
const AUTHORIZE = {
  client_id: 'taskctl',
  redirect_uri: 'http://127.0.0.1:53682/callback',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  state: 'af0ifjsldkj',
  scope: 'tasks:read tasks:write',
};
const ALL_SCOPES = ['tasks:read', 'tasks:write', 'connectors:read', 'connectors:write', 'tokens:manage', 'webhooks:manage'] as const;

let server: TestServer;
let receiver: WebhookReceiver;
let feeds: FakeIcalFeeds;
let ada: TaskClient;
/** The samples as the project keeps them; the test runs the ones the server serves. */
const written = samplesOf(parse(readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8')) as Parameters<typeof samplesOf>[0]);
let served: Map<string, SampleOperation>;
/** What every sample may read, and the addresses replaced in every sample. */
let shared: SampleInput;
let feedCounter = 0;

beforeAll(async () => {
  [server, receiver, feeds] = await Promise.all([
    startServer({
      env: {
        // Samples reach only the loopback fakes below.
        CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true',
        OUTBOUND_LOOPBACK_ONLY: 'true',
        // Some 200 runs of one account within a minute or two.
        RATE_LIMIT_BURST_PER_MINUTE: '100000',
        RATE_LIMIT_SUSTAINED_PER_HOUR: '1000000',
        RATE_LIMIT_CLIENT_BURST_PER_MINUTE: '100000',
        RATE_LIMIT_CLIENT_SUSTAINED_PER_HOUR: '1000000',
        RATE_LIMIT_REFRESH_BURST_PER_MINUTE: '100000',
        RATE_LIMIT_REFRESH_SUSTAINED_PER_HOUR: '1000000',
      },
    }),
    startWebhookReceiver(),
    startFakeIcalFeeds(),
  ]);
  feeds.setFeed('/tasks.ics', [{ uid: 'release-notes', summary: 'Write the release notes' }]);
  const registered = dataOf(await server.client().registerAccount({ email: ADA, password: PASSWORD }));
  ada = server.client({ accessToken: registered.accessToken, refreshToken: registered.refreshToken });
  const token = dataOf(await ada.createApiToken({ name: 'code samples', scopes: [...ALL_SCOPES] }));
  const task = dataOf(await ada.createTask({ title: 'Write the release notes' }));
  const account = dataOf(await ada.connectAccount('ical', { url: feeds.url('/tasks.ics') }));
  const job = await syncAndWait(ada, account.id);
  const webhook = dataOf(await ada.createWebhook({ url: receiver.url('/hooks/tasks'), events: ['task.created'] }));
  const delivery = dataOf(await ada.pingWebhook(webhook.id));
  shared = {
    env: { TOKEN: token.token, TASK_ID: task.id, ACCOUNT_ID: account.id, JOB_ID: job.id, WEBHOOK_ID: webhook.id, DELIVERY_ID: delivery.id },
    replace: {
      'http://localhost:3000': server.baseUrl,
      'https://example.com/hooks/tasks': receiver.url('/hooks/tasks'),
      'https://calendar.example.com/tasks.ics': feeds.url('/tasks.ics'),
    },
  };
  const document = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as Parameters<typeof samplesOf>[0];
  served = new Map(samplesOf(document).map((operation) => [operation.operationId, operation]));
});

afterAll(async () => {
  await Promise.all([server?.stop(), receiver?.close(), feeds?.close()]);
});

async function freshRefreshToken(): Promise<string> {
  return dataOf(await server.client().login({ email: ADA, password: PASSWORD })).refreshToken;
}

async function freshFeedAccount(): Promise<string> {
  const path = `/feed-${++feedCounter}.ics`;
  feeds.setFeed(path, []);
  return dataOf(await ada.connectAccount('ical', { url: feeds.url(path) })).id;
}

/** ada's device grant for taskctl, approved on the verification page. */
async function approvedDeviceCode(): Promise<string> {
  const grant = await deviceCode(server);
  await approveDevice(server, grant.verification_uri_complete, ADA, PASSWORD);
  return grant.device_code;
}

/** The consent page's form, as a browser holds it after opening the authorisation sample's address. */
async function consentForm(): Promise<Record<string, string>> {
  const page = await openConsentPage(server, AUTHORIZE);
  expect(page.response.status).toBe(200);
  return { CSRF_TOKEN: page.fields.csrf_token!, CSRF_COOKIE: page.cookie ?? '' };
}

/** What a sample needs beyond the shared state, made anew for each run. */
const prepare: Record<string, (label: string) => Promise<Partial<SampleInput>>> = {
  registerAccount: async () => ({ replace: { [ADA]: uniqueEmail('sample') } }),
  refreshTokens: async () => ({ env: { REFRESH_TOKEN: await freshRefreshToken() } }),
  logout: async () => ({ env: { REFRESH_TOKEN: await freshRefreshToken() } }),
  deleteMe: async () => {
    const email = uniqueEmail('closing');
    return { env: { TOKEN: dataOf(await server.client().registerAccount({ email, password: PASSWORD })).accessToken } };
  },
  revokeApiToken: async () => ({ env: { TOKEN_ID: dataOf(await ada.createApiToken({ name: 'to revoke' })).id } }),
  deleteTask: async () => ({ env: { TASK_ID: dataOf(await ada.createTask({ title: 'to delete' })).id } }),
  disconnectAccount: async () => ({ env: { ACCOUNT_ID: await freshFeedAccount() } }),
  deleteWebhook: async () => ({
    env: { WEBHOOK_ID: dataOf(await ada.createWebhook({ url: receiver.url('/hooks/gone'), events: ['task.deleted'] })).id },
  }),
  postMcpMessage: async (label) => (label === 'taskctl' ? {} : { env: { TOKEN: (await appTokens(server)).accessToken } }),
  submitAuthorization: async () => ({ env: await consentForm() }),
  authorize: async (label) =>
    label !== 'taskctl'
      ? {}
      : {
          // `taskctl login --no-browser` prints the address; the test signs in there as ada would.
          interact: async (stderr) => {
            const [url] = await waitForText(stderr, /http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+/);
            const page = await readPage(await fetch(url, { redirect: 'manual' }));
            const back = await submitConsent(server, page, { email: ADA, password: PASSWORD, decision: 'allow' });
            expect(back.status).toBe(303);
            await fetch(back.headers.get('location')!);
          },
        },
  requestDeviceAuthorization: async (label) => (label === 'taskctl' ? { interact: approveFromStderr } : {}),
  issueOAuthToken: async (label) => (label === 'taskctl' ? { interact: approveFromStderr } : { env: { DEVICE_CODE: await approvedDeviceCode() } }),
  revokeOAuthToken: async (label): Promise<Partial<SampleInput>> => {
    if (label !== 'taskctl') return { env: { REFRESH_TOKEN: await freshRefreshToken() } };
    // `taskctl logout` ends a saved sign-in: sign taskctl in first, into the directory the sample then uses.
    const configDir = newConfigDir();
    const run = await loginWithDevice(server, configDir, ADA);
    expect(run.code, run.stderr).toBe(0);
    return { env: { TASKCTL_CONFIG_DIR: configDir, TASKCTL_SERVER: server.baseUrl } };
  },
  showDeviceVerification: async () => ({ env: { USER_CODE: (await deviceCode(server)).user_code } }),
  submitDeviceVerification: async () => {
    const grant = await deviceCode(server);
    const page = await openDevicePage(server, grant.user_code);
    return { env: { USER_CODE: grant.user_code, CSRF_TOKEN: page.fields.csrf_token!, CSRF_COOKIE: page.cookie ?? '' } };
  },
  revokeAuthorization: async () => {
    const code = await approvedDeviceCode();
    expect((await pollDevice(server, code)).response.status).toBe(200);
    return {};
  },
};

/** `taskctl login --device` waits for a person: approve the code it prints. */
async function approveFromStderr(stderr: () => string): Promise<void> {
  const [, complete] = await waitForText(stderr, /\(or open (\S+)\)/);
  await approveDevice(server, complete!, ADA, PASSWORD);
}

/** Sign-in samples run taskctl without a token (they make the sign-in); every other one with the API token. */
const SIGN_IN = new Set(['authorize', 'requestDeviceAuthorization', 'issueOAuthToken', 'revokeOAuthToken']);

const oneAtATime = concurrencyLimit(3);

describe('code samples', () => {
  it('every operation has a curl, a TypeScript and a Python sample, and the served document has them', () => {
    expect(written.length).toBeGreaterThan(50);
    expect([...served.values()]).toEqual(written);
    const incomplete = written
      .filter((operation) => !['curl', 'TypeScript', 'Python'].every((label) => operation.samples.some((sample) => sample.label === label)))
      .map((operation) => operation.operationId);
    expect(incomplete).toEqual([]);
  });

  it.skipIf(pythonAvailable)('the Python samples: SKIPPED, .venv-python/ is not set up (bash scripts/python/setup.sh)', () => {});

  it('the TypeScript samples type-check against the SDK', { timeout: 240_000 }, async () => {
    const sources = Object.fromEntries(
      written.flatMap((operation) => operation.samples.filter((sample) => sample.label === 'TypeScript').map((sample) => [operation.operationId, sample.source])),
    );
    const run = await typecheck(sources);
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  // Waiting for a turn counts in a test's time: room for a loaded machine.
  it.concurrent.for(written.map((operation) => operation.operationId))('the samples of %s run', { timeout: 180_000 }, async (operationId) => {
    const operation = served.get(operationId);
    expect(operation, `${operationId} is not in the served document`).toBeDefined();
    await oneAtATime(async () => {
      for (const sample of operation!.samples) {
        if (sample.label === 'Python' && !pythonAvailable) continue;
        const own = (await prepare[operationId]?.(sample.label)) ?? {};
        const env = { ...shared.env, ...own.env };
        if (sample.label === 'taskctl') {
          env.TASKCTL_SERVER = server.baseUrl;
          if (!SIGN_IN.has(operationId)) env.TASKCTL_TOKEN = env.TOKEN!;
        }
        const run = await runSample(sample, { env, replace: { ...shared.replace, ...own.replace }, interact: own.interact });
        expect(run.code, `${operationId} (${sample.label}) exited ${run.code}:\n${run.stdout}\n${run.stderr}`).toBe(0);
      }
    });
  });
});
