#!/usr/bin/env node
// The built CLI (npm run build -w cli). The catalogue it shares with the server is compiled beside it,
// which is why the entry sits at dist/cli/src/.
import { main } from '../dist/cli/src/main.js';

process.exitCode = await main(process.argv);
