import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Router } from 'express';
import { parse } from 'yaml';
import { openApiPath } from '../platform/paths.js';

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

const docsPage = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Task Service API</title>
    <style>body { margin: 0; padding: 0; }</style>
  </head>
  <body>
    <redoc spec-url="/openapi.json" hide-download-button="false"></redoc>
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
  router.get('/docs/redoc.standalone.js', (_req, res) => {
    res.type('text/javascript').sendFile(redocBundlePath, { maxAge: '1d' });
  });
  return router;
}
