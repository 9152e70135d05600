#!/usr/bin/env node
// The built CLI (npm run build -w cli): one bundled file, see cli/scripts/bundle.mjs.
import { main } from '../dist/taskctl.js';

process.exitCode = await main(process.argv);
