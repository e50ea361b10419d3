import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_CHECKS } from '../../src/conformance/checks/built-in-checks.js';
import { BUILT_IN_REPORTERS } from '../../src/conformance/reporters/built-in-reporters.js';
import { packageRoot } from '../../src/contract/package-root.js';
import { runCli } from './run-cli.js';

describe('README: the conformance runner', async () => {
  const readme = await readFile(join(packageRoot(), 'README.md'), 'utf8');

  it('lists every check with its severity', () => {
    for (const check of BUILT_IN_CHECKS) expect(readme).toContain(`| \`${check.id}\` | ${check.severity} |`);
  });

  it('lists every reporter and every exit code', () => {
    for (const name of Object.keys(BUILT_IN_REPORTERS)) expect(readme).toContain(`| \`${name}\` |`);
    for (const code of [0, 1, 2, 3, 4]) expect(readme).toMatch(new RegExp(`^\\| ${code} \\| `, 'm'));
  });

  it('prints the options exactly as --help does', async () => {
    const help = await runCli(['--help']);
    const optionLines = help.out.split('\n').filter((line) => /^ {2}(-\w, | {4})--/.test(line));
    expect(optionLines.length).toBeGreaterThan(10);
    for (const line of optionLines) expect(readme).toContain(line);
  });
});
