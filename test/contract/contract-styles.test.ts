import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCases } from '../../src/conformance/cases/generate/generate-cases.js';
import { defaultContractPath, loadContract } from '../../src/contract/load-contract.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import { runCli } from '../conformance/run-cli.js';
import { startMock } from '../support/start-mock.js';

// The Pet Store contract as teams write it: the same operations and fields, each in another style.
const STYLES = ['split-files', 'all-of', 'read-only', 'nullable', 'oas-3-1'] as const;
const contractOf = (style: string) => resolve(import.meta.dirname, '../contracts/styles', style, 'openapi.yaml');

// The kinds a style used to lose cases from without a word (allOf: ids, pagination, refused-adds-nothing).
const KINDS = ['ids', 'pagination', 'invalid-bodies'] as const;

async function countsByKind(file: string): Promise<Record<string, number>> {
  const contract = await loadContract(file);
  const { cases } = generateCases(contract, { seed: 1, token: DEV_API_KEY, kinds: [...KINDS], maxCases: undefined });
  return Object.fromEntries(KINDS.map((kind) => [kind, cases.filter((c) => c.kind === kind).length]));
}

describe.each(STYLES)('the Pet Store contract written %s', async (style) => {
  const contract = contractOf(style);
  const mock = await startMock({ contract });
  const auth = { authorization: `Bearer ${DEV_API_KEY}`, 'content-type': 'application/json' };

  it('is served by the mock: an ordinary create, then the list and the get show it', async () => {
    const created = await fetch(`${mock.url}/pets`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as { id: number; name: string };
    expect(pet.name).toBe('Rex');
    const listed = (await (await fetch(`${mock.url}/pets?limit=100`, { headers: auth })).json()) as { id: number }[];
    expect(listed.map((p) => p.id)).toContain(pet.id);
    const fetched = await fetch(`${mock.url}/pets/${pet.id}`, { headers: auth });
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toEqual(pet);
  });

  it('makes no fewer ids, pagination and invalid-body cases than the stock contract', async () => {
    // A style may bound a field the stock contract leaves open (oas-3-1: categoryId's exclusiveMinimum 0), which
    // adds an invalid-body case past it.
    const [styled, stock] = [await countsByKind(contract), await countsByKind(defaultContractPath())];
    for (const kind of KINDS) expect(styled[kind], kind).toBeGreaterThanOrEqual(stock[kind] as number);
  });

  it('passes the runner against the mock started on it', async () => {
    const run = await runCli(['--target', mock.url, '--contract', contract, '--reporter', 'json', '--seed', '1']);
    const report = await run.report();
    expect(
      report.scenarios.flatMap((s) =>
        s.findings.map((f) => `${s.id}: ${f.checkId}: ${f.received} (documented: ${f.documented})`),
      ),
    ).toEqual([]);
    expect(run.code).toBe(0);
  });
});

describe('a contract that cannot be loaded', () => {
  it('stops the runner with exit 2, naming the file, the pointer of the $ref and the cause', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'contract-style-'));
    const file = join(dir, 'openapi.yaml');
    await cp(resolve(contractOf('split-files'), '../schemas'), join(dir, 'schemas'), { recursive: true });
    const text = await readFile(contractOf('split-files'), 'utf8');
    await writeFile(file, text.replace('$ref: "./schemas/new-pet.yaml"', '$ref: "./schemas/missing.yaml"'));
    // Nothing listens on port 9 of the loopback: the contract is refused before any request is sent.
    const run = await runCli(['--target', 'http://127.0.0.1:9/v1', '--contract', file, '--reporter', 'json']);
    expect(run.code).toBe(2);
    expect(run.err).toContain(`Failed to load ${file}: openapi.yaml#/components/schemas/NewPet/$ref: `);
    expect(run.err).toMatch(/schemas\/missing\.yaml: ENOENT/);
  });
});

describe('a string field with a pattern', () => {
  it('gets a valid case with its matching example and an invalid one with a string the pattern refuses', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'contract-style-'));
    const file = join(dir, 'openapi.yaml');
    const code = '{type: string, pattern: "^[A-Z]{3}$", example: ABC}';
    const body = `{type: object, required: [code], properties: {code: ${code}}}`;
    await writeFile(
      file,
      `openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths:\n  /codes:\n    post:\n      operationId: addCode\n      requestBody: {required: true, content: {application/json: {schema: ${body}}}}\n      responses: {"201": {description: ok}, "400": {description: refused}}\n`,
    );
    const { cases } = generateCases(await loadContract(file), {
      seed: 1,
      token: DEV_API_KEY,
      kinds: ['valid-bodies', 'invalid-bodies'],
      maxCases: undefined,
    });
    const sent = (id: string) => cases.find((c) => c.id === id)?.steps[0]?.body;
    expect(sent('valid-bodies/addCode/code/pattern-example')).toEqual({ kind: 'json', value: { code: 'ABC' } });
    expect(sent('invalid-bodies/addCode/code/pattern-mismatch')).toEqual({ kind: 'json', value: { code: '' } });
  });
});
