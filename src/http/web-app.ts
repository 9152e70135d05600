import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RequestHandler, Response } from 'express';
import { AppError, errors } from '../platform/errors.js';
import { projectRoot } from '../platform/paths.js';
import { percentDecoded } from './path-matcher.js';

export const WEB_APP_PATH = '/app/';

/**
 * What the first-party web app (web/, built by Vite with `base: '/app/'`) may load: this server only,
 * no inline script or style, never framed. Vite's build has no inline code (web/vite.config.ts).
 */
export const WEB_APP_POLICY = "default-src 'self'; base-uri 'self'; form-action 'self'; object-src 'none'; frame-ancestors 'none'";

const HASHED = 'public, max-age=31536000, immutable';

/**
 * The web app's files at /app/ (WEB_APP_DIR, web/dist by default) and `GET /` sent there; every other
 * request goes on to `api`. They are not operations of the API: not in the document, so neither
 * validated nor counted, and not for other origins (no CORS headers). Hashed files under
 * /app/assets/ are cached for a year; index.html, the answer to every other path under /app/ (the
 * app routes in the browser), is revalidated on every load, so a new build is seen at once.
 */
export function serveWebApp(dir: string | undefined, api: RequestHandler): RequestHandler {
  const root = resolve(dir ?? join(projectRoot, 'web', 'dist'));
  const index = join(root, 'index.html');

  return function webApp(req, res, next) {
    const path = req.path;
    if (path === '/' || path === '/app') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return api(req, res, next);
      res.status(302).location(WEB_APP_PATH).end();
      return;
    }
    if (!path.startsWith(WEB_APP_PATH)) return api(req, res, next);

    res.setHeader('Content-Security-Policy', WEB_APP_POLICY);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, errors.methodNotAllowed(req.method, path, ['GET', 'HEAD']));
    // Looked for on each request: a build made while the server runs is served without a restart.
    if (!existsSync(index)) {
      // Said to anonymous callers: the way to build it, never where this server keeps its files.
      return refuse(res, new AppError(404, 'NOT_FOUND', 'The web app is not built on this server: `npm ci` builds it into web/dist, or set WEB_APP_DIR to a built copy.'));
    }

    const sendIndex = () => res.sendFile(index, { cacheControl: false, headers: { 'Cache-Control': 'no-cache' } }, (err) => err && next(err));
    const relative = percentDecoded(path.slice(WEB_APP_PATH.length));
    if (relative === undefined) return refuse(res, errors.routeNotFound(req.method, path));
    if (relative === '' || relative === 'index.html') return sendIndex();
    const hashed = relative.startsWith('assets/');
    // `root` keeps the path inside the folder (send refuses `..`); a dot-file is not found.
    res.sendFile(relative, { root, dotfiles: 'deny', cacheControl: false, headers: { 'Cache-Control': hashed ? HASHED : 'no-cache' } }, (err?: Error & { status?: number }) => {
      if (!err) return;
      if (res.headersSent || (err.status !== 404 && err.status !== 403 && err.status !== 400)) return next(err);
      // A file of a build that is gone (an old page asking for it) is a 404, not the app's page as a script.
      if (hashed) return refuse(res, errors.routeNotFound(req.method, path));
      sendIndex();
    });
  };
}

/** The common error body (the document's Error schema), as the API's renderer writes it. */
function refuse(res: Response, error: AppError): void {
  res.locals.error = error;
  res.status(error.status).set(error.headers).json(error.toBody());
}
