import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Router } from 'express';
import { parse } from 'yaml';
import { openApiPath, projectRoot } from '../platform/paths.js';

const require = createRequire(import.meta.url);

let loaded: { yaml: string; document: Record<string, unknown> } | undefined;

/** Reads the document once per process; served as YAML, as JSON and through the self-hosted Redoc page, and read by the MCP tools. */
export function loadOpenApiDocument(): { yaml: string; document: Record<string, unknown> } {
  if (!loaded) {
    const yaml = readFileSync(openApiPath, 'utf8');
    loaded = { yaml, document: parse(yaml) as Record<string, unknown> };
  }
  return loaded;
}

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
    <redoc spec-url="/openapi.json" hide-download-button="false" show-extensions="x-rate-limit-budget,x-rate-limit-group"></redoc>
    <script src="/docs/redoc.standalone.js"></script>
  </body>
</html>`;

// Everything from this server: users may be offline, and nothing may report to anyone else.
const docsPolicy =
  "default-src 'self'; script-src 'self' blob:; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'";

export function createDocsRouter({ yaml, document }: { yaml: string; document: Record<string, unknown> }): Router {
  const json = JSON.stringify(document);
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(json);
  });
  router.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').send(yaml);
  });
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', docsPolicy);
    res.type('text/html').send(docsPage);
  });
  const redocBundle = readFileSync(redocBundlePath, 'utf8').replaceAll(REDOCLY_CDN_LOGO, EMPTY_IMAGE);
  router.get('/docs/redoc.standalone.js', (_req, res) => {
    res.type('text/javascript').set('Cache-Control', 'public, max-age=86400').send(redocBundle);
  });
  router.get('/docs/logo.svg', (_req, res) => {
    res.type('image/svg+xml').sendFile(join(assetsDir, 'logo.svg'), { maxAge: '1d' });
  });
  router.get('/favicon.ico', (_req, res) => {
    res.type('image/x-icon').sendFile(join(assetsDir, 'favicon.ico'), { maxAge: '1d' });
  });
  return router;
}
