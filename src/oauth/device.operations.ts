import { operation, type OperationEntry } from '../http/operations.js';
import { errors, type OAuthErrorCode } from '../platform/errors.js';
import { publicBaseUrl } from '../http/public-url.js';
import type { DeviceGrant } from './device-grant.service.js';
import { DEVICE_PAGE_HEADERS } from './device-page.js';
import type { DevicePage, DeviceVerification } from './device-verification.service.js';

/** The device authorization grant's endpoints (RFC 8628); its grant of /oauth/token is served with the others (oauth.operations.ts). */
export function deviceOperations(deps: { publicUrl: string | undefined; grant: DeviceGrant; verification: DeviceVerification }): OperationEntry[] {
  const { publicUrl, grant, verification } = deps;
  return [
    operation('requestDeviceAuthorization', async ({ req, body }) => {
      const outcome = await grant.authorize(body, publicBaseUrl(req, publicUrl));
      // A refusal has an RFC 6749 §5.2 body (RFC 8628 §3.5 adds its error codes), written by the route's OAuth renderer.
      if (!outcome.ok) throw errors.oauth(outcome.status, outcome.body.error as OAuthErrorCode, outcome.body.error_description);
      return { status: 200, headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' }, body: outcome.body };
    }),
    operation('showDeviceVerification', async ({ req, query }) => pageAnswer(await verification.show(query.user_code, origin(req)))),
    operation('submitDeviceVerification', async ({ req, body }) => pageAnswer(await verification.submit(body, origin(req)))),
  ];

  function origin(req: Parameters<typeof publicBaseUrl>[0]) {
    return { issuer: publicBaseUrl(req, publicUrl), cookieHeader: req.headers.cookie };
  }
}

const pageAnswer = (page: DevicePage) => ({ status: page.status, headers: { ...page.headers, ...DEVICE_PAGE_HEADERS }, body: page.html });
