import { existsSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/contract/package-root.js';
import { readAllDocs } from './support/read-docs.js';

describe('the docs: pages and links', async () => {
  const pages = await readAllDocs();
  const links = pages.flatMap((page) =>
    [...page.text.matchAll(/\]\(([^)#\s]+\.md)(#[^)]*)?\)/g)].map((m) => ({
      from: page.path,
      to: normalize(join(dirname(page.path), m[1] as string)),
    })),
  );

  it('links only to pages that exist', () => {
    for (const link of links) expect(existsSync(join(packageRoot(), link.to)), `${link.from} → ${link.to}`).toBe(true);
  });

  it('links every page from another one, so that a reader who starts at the README can reach it', () => {
    for (const page of pages.filter((p) => p.path !== 'README.md')) {
      expect(
        links.some((link) => link.to === page.path && link.from !== page.path),
        page.path,
      ).toBe(true);
    }
  });

  it('keeps the README a front door of at most 8 KB', () => {
    const readme = pages.find((p) => p.path === 'README.md')?.text ?? '';
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(8 * 1024);
  });
});
