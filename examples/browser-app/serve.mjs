// Serves the example's static files (index.html, app.js, the bundled dist/sdk.js) on a loopback port.
// Run: node examples/browser-app/serve.mjs [port]  then open http://127.0.0.1:<port>/?api=<service URL>
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { buildBrowserApp } from './build.mjs';

const FILES = {
  '/': ['index.html', 'text/html; charset=utf-8'],
  '/index.html': ['index.html', 'text/html; charset=utf-8'],
  '/app.js': ['app.js', 'text/javascript; charset=utf-8'],
  '/sdk.js': ['dist/sdk.js', 'text/javascript; charset=utf-8'],
};

export async function serveBrowserApp(port = 0) {
  await buildBrowserApp();
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    const file = FILES[path];
    if (!file) return void res.writeHead(404).end('Not found');
    const body = await readFile(fileURLToPath(new URL(file[0], import.meta.url)));
    res.writeHead(200, { 'content-type': file[1], 'cache-control': 'no-store' }).end(body);
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await serveBrowserApp(Number(process.argv[2] ?? 8080));
  process.stdout.write(`Browser example on ${url}/?api=http://127.0.0.1:3000\n`);
}
