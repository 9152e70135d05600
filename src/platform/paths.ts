import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding package.json, whether we run from src/ (tsx) or dist/src/ (built). */
function findProjectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'openapi', 'openapi.yaml'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('openapi/openapi.yaml not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}

export const projectRoot = findProjectRoot();
export const openApiPath = join(projectRoot, 'openapi', 'openapi.yaml');
