// Bundles the SDK (sdk/dist, built by `npm run build -w sdk`) into one browser ES module: dist/sdk.js.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

export async function buildBrowserApp() {
  await build({
    entryPoints: [fileURLToPath(new URL('../../sdk/dist/index.js', import.meta.url))],
    outfile: fileURLToPath(new URL('./dist/sdk.js', import.meta.url)),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildBrowserApp();
