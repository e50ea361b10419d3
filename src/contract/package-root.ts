import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's root folder, found by walking up to package.json: the same code runs from src/ under
 * vitest and from dist/src/ once built, so relative paths cannot be fixed.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the contract module');
    dir = parent;
  }
  return dir;
}
