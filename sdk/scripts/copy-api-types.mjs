// The SDK ships the types generated from the API document; copy them in rather than keep a copy in git.
import { copyFileSync, mkdirSync } from 'node:fs';
const target = process.argv[2] ?? 'src';
mkdirSync(new URL(`../${target}/`, import.meta.url), { recursive: true });
copyFileSync(new URL('../../generated/api.d.ts', import.meta.url), new URL(`../${target}/api.d.ts`, import.meta.url));
