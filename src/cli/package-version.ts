import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../contract/package-root.js';

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
