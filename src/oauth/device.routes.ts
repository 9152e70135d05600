import { Router, type Request, type Response } from 'express';
import { publicBaseUrl } from '../http/public-url.js';
import { DEVICE_CODE_GRANT, type DeviceGrant } from './device-grant.service.js';
import { sendDevicePage } from './device-page.js';
import type { DeviceForm, DevicePage, DeviceVerification } from './device-verification.service.js';
import type { TokenRefusal } from './token-request.js';

/**
 * The device authorization grant's endpoints (RFC 8628). Mounted before the OAuth router: its
 * /oauth/token handler takes only the device_code grant and passes every other grant on.
 */
export function createDeviceRouter(deps: { publicUrl: string | undefined; grant: DeviceGrant; verification: DeviceVerification }): Router {
  const { publicUrl, grant, verification } = deps;
  const origin = (req: Request) => ({ issuer: publicBaseUrl(req, publicUrl), cookieHeader: req.headers.cookie });
  const router = Router();

  router.post('/oauth/device_authorization', async (req, res) => {
    const outcome = await grant.authorize(req.body as { client_id?: string; scope?: string }, publicBaseUrl(req, publicUrl));
    if (!outcome.ok) return sendOAuthError(res, outcome);
    res.status(200).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json(outcome.body);
  });

  router.post('/oauth/token', async (req, res, next) => {
    const form = req.body as { grant_type?: string; client_id?: string; device_code?: string };
    if (form.grant_type !== DEVICE_CODE_GRANT) return next();
    const outcome = await grant.token(form);
    if (!outcome.ok) return sendOAuthError(res, outcome);
    res.status(200).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json(outcome.body);
  });

  router.get('/oauth/device', async (req, res) => {
    const userCode = typeof req.query.user_code === 'string' ? req.query.user_code : undefined;
    send(res, await verification.show(userCode, origin(req)));
  });

  router.post('/oauth/device', async (req, res) => {
    send(res, await verification.submit(req.body as DeviceForm, origin(req)));
  });

  return router;
}

function send(res: Response, page: DevicePage): void {
  res.set(page.headers);
  sendDevicePage(res, page.status, page.html);
}

/** RFC 6749 §5.2 bodies (RFC 8628 §3.5 adds its error codes to them). */
function sendOAuthError(res: Response, refusal: TokenRefusal): void {
  res.status(refusal.status).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json(refusal.body);
}
