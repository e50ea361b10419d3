import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCases } from '../../src/conformance/cases/generate/generate-cases.js';
import type { Scenario } from '../../src/conformance/cases/scenario.js';
import { loadContract } from '../../src/contract/load-contract.js';
import { useCrudServer } from './use-crud-server.js';

// Formats, lengths, a pattern, 3.1 prefixItems, unique array items, and an email a server may hold unique (409).
const ACCOUNTS = 'test/contracts/accounts/openapi.yaml';

// Every kind that sends a body; the CRUD server does not check query parameters or media types, which are not
// what this contract is about.
const KINDS = ['--generate', 'valid-bodies,invalid-bodies,effects,ids,pagination,auth,http'];
const { runAgainst } = useCrudServer(['--seed', '1', '-r', 'json', ...KINDS]);

const generated = async (file: string, seed = 1) =>
  generateCases(await loadContract(file), { seed, token: 'k', kinds: undefined, maxCases: undefined });

/** Every body a case sends to createAccount expecting only success, with each repetition's own. */
function createBodies(cases: readonly Scenario[]): Record<string, unknown>[] {
  return cases.flatMap((scenario) =>
    scenario.steps
      .filter(
        (step) => step.operation.operationId === 'createAccount' && step.expect.status?.every((s) => s === '2XX' || s === 201),
      )
      .flatMap(
        (step) => (step.repeat?.each ?? (step.body?.kind === 'json' ? [step.body.value] : [])) as Record<string, unknown>[],
      ),
  );
}

describe('sample values', () => {
  it('are valid against the contract in every create a run sends, and no two creates share an email', async () => {
    const contract = await loadContract(ACCOUNTS);
    const validate = contract.byId.get('createAccount')?.requestBody?.contents[0]?.validate;
    const bodies = createBodies((await generated(ACCOUNTS)).cases);
    expect(bodies.length).toBeGreaterThan(20);
    for (const body of bodies) expect(validate?.(body, 'body'), JSON.stringify(body)).toEqual([]);
    const emails = bodies.map((body) => body.email);
    expect(new Set(emails).size).toBe(emails.length);
  });

  it('are the same for the same seed, and others for another', async () => {
    const one = createBodies((await generated(ACCOUNTS, 7)).cases).map((b) => b.email);
    const again = createBodies((await generated(ACCOUNTS, 7)).cases).map((b) => b.email);
    const other = createBodies((await generated(ACCOUNTS, 8)).cases).map((b) => b.email);
    expect(again).toEqual(one);
    expect(other).not.toEqual(one);
  });

  it('pass a correct server that validates formats, lengths and patterns, and refuses a taken email with 409 (exit 0)', async () => {
    const run = await runAgainst(ACCOUNTS, 'unique-emails');
    expect(run.code, run.out).toBe(0);
    const report = await run.report();
    expect(report.scenarios.filter((s) => s.outcome === 'passed').length).toBeGreaterThan(100);
  });

  it('that cannot be made are said, naming the construct and the cases not made, never sent to be refused', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'samples-'));
    const file = join(dir, 'openapi.yaml');
    const text = await readFile(ACCOUNTS, 'utf8');
    await writeFile(
      file,
      text.replace(', examples: [AB12CD]}', '}').replace('required: [id, kind,', 'required: [id, kind, code,'),
    );
    const { cases, notMade } = await generated(file);
    const said = notMade.find((n) => n.reason.includes('body.code'));
    expect(said?.reason).toMatch(/lookahead/);
    expect(said?.cases).toMatch(/^\d+ cases \(/);
    expect(createBodies(cases)).toEqual([]);
  });
});
