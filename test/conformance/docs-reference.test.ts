import { describe, expect, it } from 'vitest';
import { BUILT_IN_CHECKS } from '../../src/conformance/judge/checks/built-in-checks.js';
import { BUILT_IN_REPORTERS } from '../../src/conformance/reporters/built-in-reporters.js';
import { readDoc } from '../support/read-docs.js';
import { runCli } from './run-cli.js';

describe('the conformance reference pages', async () => {
  const checks = await readDoc('docs/reference/checks.md');
  const reports = await readDoc('docs/reference/reports.md');
  const exitCodes = await readDoc('docs/reference/exit-codes.md');
  const options = await readDoc('docs/reference/conformance-cli.md');

  it('lists every check with its severity', () => {
    for (const check of BUILT_IN_CHECKS) expect(checks).toContain(`| \`${check.id}\` | ${check.severity} |`);
  });

  it('lists every reporter and every exit code', () => {
    for (const name of Object.keys(BUILT_IN_REPORTERS)) expect(reports).toContain(`| \`${name}\` |`);
    for (const code of [0, 1, 2, 3, 4]) expect(exitCodes).toMatch(new RegExp(`^\\| ${code} \\| `, 'm'));
  });

  it('prints the options exactly as --help does', async () => {
    const help = await runCli(['--help']);
    const optionLines = help.out.split('\n').filter((line) => /^ {2}(-\w, | {4})--/.test(line));
    expect(optionLines.length).toBeGreaterThan(10);
    for (const line of optionLines) expect(options).toContain(line);
  });
});
