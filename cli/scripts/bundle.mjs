// Bundles taskctl into one file (dist/taskctl.js): a CLI pays for every module it loads at each start,
// and one file loads several times faster than the hundred-odd it is made of. `open` and the MCP SDK
// stay outside: they are loaded only by `login` and `mcp`.
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('../src/main.ts', import.meta.url).pathname],
  outfile: new URL('../dist/taskctl.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  sourcemap: true,
  external: ['open', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'],
  // commander is CommonJS: its require() of node built-ins needs a real require in an ES module.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
