import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCases } from '../../src/conformance/cases/generate/generate-cases.js';
import { defaultContractPath, loadContract } from '../../src/contract/load-contract.js';
import { stringifyJson } from '../../src/contract/lossless-json.js';
import { startMock } from '../support/start-mock.js';
import { runCli } from './run-cli.js';

const contract = await loadContract();

/** What a case sends, as text: its id and each step's operation, parameters, query, headers and body. */
function sent(seed: number, kinds?: string[]): string[] {
  return generateCases(contract, { seed, token: 'petstore-dev-key', kinds, maxCases: undefined }).cases.map((c) =>
    stringifyJson([c.id, c.steps.map((s) => [s.operation.operationId, s.path, s.query, s.headers, s.body])]),
  );
}

describe('the generator', () => {
  it('sends the same cases for the same seed, and other values for another seed', () => {
    expect(sent(42)).toEqual(sent(42));
    const other = sent(43);
    expect(other.map((c) => JSON.parse(c)[0])).toEqual(sent(42).map((c) => JSON.parse(c)[0]));
    expect(other).not.toEqual(sent(42));
  });

  it('gives each kind its own values: choosing fewer kinds changes none of the others', () => {
    const auth = sent(9, ['auth']);
    expect(sent(9).filter((c) => c.startsWith('["auth/'))).toEqual(auth);
  });

  it('gives every case a unique id and derives cases for every operation of the contract', () => {
    const { cases } = generateCases(contract, { seed: 1, token: 'k3y', kinds: undefined, maxCases: undefined });
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    const operations = new Set(cases.flatMap((c) => c.steps.map((s) => s.operation.operationId)));
    expect([...operations].sort()).toEqual(contract.operations.map((o) => o.operationId).sort());
  });

  it('--max-cases takes cases from every kind in turn', () => {
    const { cases } = generateCases(contract, { seed: 1, token: 'k', kinds: undefined, maxCases: 14 });
    expect(cases).toHaveLength(14);
    expect(new Set(cases.map((c) => c.kind)).size).toBe(9);
  });
});

describe('conformance options for generated cases', async () => {
  const mock = await startMock();
  const empty = await mkdtemp(join(tmpdir(), 'empty-suite-'));

  it('runs the generated cases alone from an empty scenario folder, and records and prints the seed', async () => {
    const run = await runCli(['--target', mock.url, '--scenarios', empty, '--seed', '1234', '--reporter', 'json,console']);
    const report = await run.report();
    expect(run.code).toBe(0);
    expect(report.settings.seed).toBe(1234);
    expect(run.out).toMatch(/seed 1234/);
    expect(report.scenarios.every((s) => s.source === 'generated')).toBe(true);
    expect(report.totals.exchanges).toBeGreaterThan(200);
  });

  it('--case reruns one case alone by its id, and a glob chooses several', async () => {
    const one = await (await runCli(['--target', mock.url, '--case', 'auth/getPet/key-prefix/kept-alive-connection'])).report();
    expect(one.scenarios.map((s) => s.id)).toEqual(['probe/target', 'auth/getPet/key-prefix/kept-alive-connection']);
    const names = await (await runCli(['--target', mock.url, '--case', 'valid-bodies/createPet/name/*'])).report();
    expect(names.scenarios.filter((s) => s.outcome === 'passed' && s.kind === 'valid-bodies')).toHaveLength(7);
  });

  it('refuses an unknown kind or a --case that matches nothing, naming the nearest', async () => {
    const kind = await runCli(['--target', mock.url, '--generate', 'auht']);
    expect(kind.code).toBe(2);
    expect(kind.err).toMatch(/--generate auht: no such kind of case \(did you mean auth\?\)/);
    const unknown = await runCli(['--target', mock.url, '--case', 'auth/listPet/no-header/fresh-connection']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/did you mean auth\/listPets\/no-header\/fresh-connection\?/);
  });

  it('--no-generate runs the scenario files only', async () => {
    const report = await (await runCli(['--target', mock.url, '--no-generate'])).report();
    expect(report.settings.generate).toEqual([]);
    expect(report.scenarios.filter((s) => s.source === 'generated').map((s) => s.kind)).toEqual(['probe']);
  });

  it('--read-only reports the cases that would create data as skipped, not run', async () => {
    const report = await (await runCli(['--target', mock.url, '--read-only', '--scenarios', empty])).report();
    const pagination = report.scenarios.filter((s) => s.kind === 'pagination');
    expect(pagination.length).toBeGreaterThan(3);
    expect(pagination.every((s) => s.outcome === 'skipped' && s.skipReason?.startsWith('--read-only'))).toBe(true);
  });

  it('gives an operation added to the contract generated cases at once, and marks statuses no case received', async () => {
    const copy = join(await mkdtemp(join(tmpdir(), 'contract-')), 'openapi.yaml');
    const original = await readFile(defaultContractPath(), 'utf8');
    const added = `  /store/orders:
    get:
      operationId: listOrders
      parameters:
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 50 } }
      responses:
        "200":
          description: Orders.
          content:
            application/json:
              schema: { type: array, items: { type: object } }
        "401":
          $ref: "#/components/responses/Unauthorized"
`;
    await writeFile(copy, original.replace('\n  /messages:\n', `\n${added}  /messages:\n`));
    const run = await runCli(['--target', mock.url, '--contract', copy, '--scenarios', empty]);
    const report = await run.report();
    const ids = report.scenarios.map((s) => s.id);
    expect(ids).toContain('auth/listOrders/no-header/fresh-connection');
    expect(ids).toContain('parameters/listOrders/limit/maximum');
    // The mock has no such path: its valid requests fail, so the run does.
    expect(run.code).toBe(1);
    expect(report.coverage.filter((r) => r.operationId === 'listOrders' && r.documented).map((r) => r.status)).toEqual([
      '200',
      '401',
    ]);
  });
});
