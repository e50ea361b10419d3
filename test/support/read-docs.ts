import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { packageRoot } from '../../src/contract/package-root.js';

/** One page of the docs, by its path from the project root (`docs/reference/checks.md`, `README.md`). */
export function readDoc(path: string): Promise<string> {
  return readFile(join(packageRoot(), path), 'utf8');
}

/** Every page a reader is sent to: the README, ARCHITECTURE.md, CONTRIBUTING.md and everything under docs/. */
export async function readAllDocs(): Promise<{ path: string; text: string }[]> {
  const root = packageRoot();
  const entries = await readdir(join(root, 'docs'), { recursive: true });
  const pages = [
    'README.md',
    'ARCHITECTURE.md',
    'CONTRIBUTING.md',
    ...entries.filter((e) => e.endsWith('.md')).map((e) => join('docs', e)),
  ];
  return Promise.all(pages.sort().map(async (path) => ({ path: relative(root, join(root, path)), text: await readDoc(path) })));
}
