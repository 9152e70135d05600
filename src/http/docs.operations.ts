import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { projectRoot } from '../platform/paths.js';
import type { OpenApiDocument } from './openapi-document.js';
import { ownResponse, type OperationEntry } from './operations.js';

const require = createRequire(import.meta.url);

const redocBundlePath = require.resolve('redoc/bundles/redoc.standalone.js');
const assetsDir = join(projectRoot, 'openapi', 'assets');
// The bundle's side menu shows Redocly's logo from their CDN on every page view; the page's policy blocks
// it (and a browser logs the refusal). An empty inline image instead: nothing leaves this server.
const REDOCLY_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_IMAGE = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')}`;

const docsPage = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Task Service API</title>
    <link rel="icon" href="/favicon.ico" sizes="16x16 32x32" />
    <style>body { margin: 0; padding: 0; }</style>
  </head>
  <body>
    <redoc spec-url="/openapi.json" hide-download-button="false" show-extensions="x-rate-limit-budget,x-rate-limit-group,x-deprecated-at,x-sunset"></redoc>
    <script src="/docs/redoc.standalone.js"></script>
  </body>
</html>`;

// Everything from this server: users may be offline, and nothing may report to anyone else.
const docsPolicy =
  "default-src 'self'; script-src 'self' blob:; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'";

/** The document as YAML and JSON, and the self-hosted Redoc page with what it loads. */
export function docsOperations({ yaml, document }: OpenApiDocument): OperationEntry[] {
  const json = JSON.stringify(document);
  const redocBundle = readFileSync(redocBundlePath, 'utf8').replaceAll(REDOCLY_CDN_LOGO, EMPTY_IMAGE);
  return [
    ownResponse('getOpenApiJson', (_req, res) => {
      res.type('application/json').send(json);
    }),
    ownResponse('getOpenApiYaml', (_req, res) => {
      res.type('application/yaml').send(yaml);
    }),
    ownResponse('getDocs', (_req, res) => {
      res.setHeader('Content-Security-Policy', docsPolicy);
      res.type('text/html').send(docsPage);
    }),
    ownResponse('getDocsScript', (_req, res) => {
      res.type('text/javascript').set('Cache-Control', 'public, max-age=86400').send(redocBundle);
    }),
    ownResponse('getDocsLogo', (_req, res) => {
      res.type('image/svg+xml').sendFile(join(assetsDir, 'logo.svg'), { maxAge: '1d' });
    }),
    ownResponse('getFavicon', (_req, res) => {
      res.type('image/x-icon').sendFile(join(assetsDir, 'favicon.ico'), { maxAge: '1d' });
    }),
  ];
}
