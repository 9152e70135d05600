// The device authorization grant (RFC 8628) as a device and as the person at a browser elsewhere.
import { expect } from 'vitest';
import { readPage, type ConsentPage } from './oauth.js';
import type { TestServer } from './server.js';

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

export async function requestDeviceCode(server: TestServer, form: Record<string, string> = { client_id: 'taskctl' }) {
  const response = await fetch(`${server.baseUrl}/oauth/device_authorization`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { response, body: (await response.json()) as Record<string, unknown> };
}

export async function deviceCode(server: TestServer, scope?: string): Promise<DeviceAuthorization> {
  const { response, body } = await requestDeviceCode(server, { client_id: 'taskctl', ...(scope ? { scope } : {}) });
  expect(response.status).toBe(200);
  return body as unknown as DeviceAuthorization;
}

export async function pollDevice(server: TestServer, deviceCodeValue: string, clientId = 'taskctl') {
  const response = await fetch(`${server.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: DEVICE_GRANT, device_code: deviceCodeValue, client_id: clientId }),
  });
  return { response, body: (await response.json()) as Record<string, unknown> };
}

/** GET /oauth/device, with the code as the person might type it. */
export async function openDevicePage(server: TestServer, userCode?: string, cookie?: string): Promise<ConsentPage> {
  const query = userCode === undefined ? '' : `?${new URLSearchParams({ user_code: userCode })}`;
  return readPage(await fetch(`${server.baseUrl}/oauth/device${query}`, { headers: cookie ? { cookie } : {} }));
}

export function submitDevicePage(
  server: TestServer,
  page: ConsentPage,
  form: { email?: string; password?: string; decision: 'allow' | 'deny' },
  overrides: { fields?: Record<string, string>; cookie?: string | null } = {},
): Promise<Response> {
  const cookie = overrides.cookie === undefined ? page.cookie : overrides.cookie;
  const entries = Object.entries({ ...page.fields, ...overrides.fields, ...form }).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return fetch(`${server.baseUrl}/oauth/device`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(entries),
  });
}

/** The person opens the verification page at the code's address, signs in and approves. */
export async function approveDevice(server: TestServer, verificationUriComplete: string, email: string, password: string): Promise<void> {
  const page = await readPage(await fetch(verificationUriComplete));
  expect(page.response.status).toBe(200);
  const done = await submitDevicePage(server, page, { email, password, decision: 'allow' });
  expect(done.status).toBe(200);
  expect(await done.text()).toContain('Device connected');
}
