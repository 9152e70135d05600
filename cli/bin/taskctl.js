#!/usr/bin/env node
// The built CLI (npm run build -w cli): one bundled file, see cli/scripts/bundle.mjs.
import { main } from '../dist/taskctl.js';

// A reader that stops early (`taskctl tasks list | head`) is normal: end quietly, as Unix tools do,
// not with Node's unhandled EPIPE stack.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(process.exitCode ?? 0);
  });
}

process.exitCode = await main(process.argv);
