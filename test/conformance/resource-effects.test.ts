import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load-contract.js';
import { notMadeNote } from '../../src/conformance/cases/generate/case-kind.js';
import { generateCases } from '../../src/conformance/cases/generate/generate-cases.js';
import { operationCoverage } from '../../src/conformance/judge/operation-coverage.js';
import type { Step } from '../../src/conformance/cases/scenario.js';
import { blockingCheckIds, runCli } from './run-cli.js';
import { type Broken, useCrudServer } from './use-crud-server.js';

const EVOLVED = 'test/contracts/evolved-petstore/openapi.yaml';
const LIBRARY = 'test/contracts/library-api/openapi.yaml';

const { runAgainst, url, failsEach } = useCrudServer([
  '--generate',
  'effects',
  '--case',
  'effects/*',
  '--seed',
  '1',
  '-r',
  'json',
]);

describe('effect checks over a CRUD server driven by the resource model', () => {
  it.each([EVOLVED, LIBRARY])('passes a correct server of %s (exit 0)', async (contract) => {
    const run = await runAgainst(contract);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    const ids = report.scenarios.map((s) => s.id);
    expect(ids.filter((id) => id.startsWith('effects/')).length).toBeGreaterThan(3);
    expect(
      report.scenarios.every((s) => s.outcome === 'passed'),
      run.out,
    ).toBe(true);
  });

  it('sends every write of the library contract to records it created, nested ones under their own parent', async () => {
    const run = await runAgainst(LIBRARY);
    const urls = (await run.report()).scenarios.flatMap((s) => s.exchanges.map((e) => e.url));
    expect(urls.some((url) => /\/authors\/[0-9a-f-]{36}\/books\/978\d{10}$/.test(url))).toBe(true);
    expect(urls.filter((url) => /undefined|null/.test(url))).toEqual([]);
  });

  const BROKEN: readonly Broken[] = [
    { contract: EVOLVED, breakage: 'update-ignored', check: 'update-took-effect' },
    { contract: EVOLVED, breakage: 'delete-does-nothing', check: 'deleted-is-gone' },
    { contract: EVOLVED, breakage: 'deleted-still-listed', check: 'deleted-is-gone' },
    { contract: EVOLVED, breakage: 'patch-replaces', check: 'update-took-effect' },
    { contract: EVOLVED, breakage: 'put-changes-id', check: 'update-took-effect' },
    { contract: EVOLVED, breakage: 'second-delete-500', check: 'delete-repeatable' },
    { contract: EVOLVED, breakage: 'refused-put-stored', check: 'refusal-leaves-no-trace' },
    { contract: LIBRARY, breakage: 'nested-any-parent', check: 'parent-scoped' },
    { contract: EVOLVED, breakage: 'delete-before-auth', check: 'refusal-leaves-no-trace' },
    { contract: LIBRARY, breakage: 'orphan-create', check: 'parent-scoped' },
    { contract: LIBRARY, breakage: 'patch-replaces', check: 'update-took-effect' },
    { contract: EVOLVED, breakage: 'update-answers-old', check: 'update-took-effect' },
    { contract: EVOLVED, breakage: 'update-touches-others', check: 'others-untouched' },
    { contract: LIBRARY, breakage: 'patch-touches-others', check: 'others-untouched' },
    { contract: LIBRARY, breakage: 'delete-matches-by-value', check: 'others-untouched' },
    { contract: LIBRARY, breakage: 'update-answers-old', check: 'update-took-effect' },
    { contract: LIBRARY, breakage: 'location-other-id', check: 'created-location' },
    { contract: EVOLVED, breakage: 'delete-answers-200', check: 'status-documented' },
    { contract: LIBRARY, breakage: 'created-later', check: 'created-readable' },
    { contract: EVOLVED, breakage: 'ignores-offset', check: 'page-advances' },
    { contract: LIBRARY, breakage: 'ignores-offset', check: 'page-advances' },
    { contract: EVOLVED, breakage: 'patch-keeps-null', check: 'patch-null-removes' },
    { contract: LIBRARY, breakage: 'patch-keeps-null', check: 'patch-null-removes' },
    { contract: EVOLVED, breakage: 'put-merges', check: 'put-replaces' },
    { contract: LIBRARY, breakage: 'put-merges', check: 'put-replaces' },
    { contract: EVOLVED, breakage: 'offset-skips-one', check: 'page-advances' },
    { contract: LIBRARY, breakage: 'page-skips-one', check: 'page-advances' },
    { contract: LIBRARY, breakage: 'ignores-text-filter', check: 'list-within-query' },
    { contract: EVOLVED, breakage: 'put-accepts-partial', check: 'status-expected' },
    { contract: LIBRARY, breakage: 'put-accepts-partial', check: 'status-expected' },
    { contract: LIBRARY, breakage: 'children-outlive-parent', check: 'parent-scoped' },
  ];

  failsEach(BROKEN);
});

describe('what the runner cannot make or run is said, never dropped in silence', () => {
  it('skips the shipped pet scenarios on a contract without their operations with one line, and runs them when named', async () => {
    const run = await runAgainst(LIBRARY);
    expect(run.code, run.out).toBe(0);
    const hints = (await run.report()).hints.filter((hint) => hint.startsWith('Skipped'));
    expect(hints).toEqual([expect.stringMatching(/^Skipped 6 scenario files \(auth\.yaml, .*\): the contract has no listPets/)]);
    const named = await runCli(['--target', url(), '--contract', LIBRARY, '--scenarios', 'conformance', '--no-generate']);
    expect(named.code).toBe(2);
  });

  it('names the construct and the cases it could not generate: an item path with no create', async () => {
    const { file, cases, notMade } = await generateFrom(NO_CREATE);
    // Only values chosen on purpose remain: an invalid one, or an id no record is likely to have (auth).
    const sent = cases.flatMap((c) =>
      c.steps.filter((s) => s.operation.operationId === 'replaceThing').map((s) => s.path.thingId),
    );
    expect(sent.filter((value) => value === undefined || value === 1)).toEqual([]);
    expect(cases.map((c) => c.id).filter((id) => id.startsWith('valid-bodies/replaceThing'))).toEqual([]);
    expect(notMade.map(notMadeNote)).toEqual([
      expect.stringMatching(
        /^Not generated: \d+ cases \(valid-bodies\/replaceThing\/.*\): thingId of replaceThing: \/things has no create/,
      ),
      expect.stringMatching(/^Not generated: effects cases of \/things \(.*\): \/things has no create/),
    ]);
    // The coverage table says it beside the operation, not only in the hints.
    const coverage = operationCoverage((await loadContract(file)).operations, [], notMade);
    const replace = coverage.find((row) => row.operationId === 'replaceThing' && row.notGenerated);
    expect(replace?.notGenerated).toEqual([expect.stringMatching(/valid-bodies\/replaceThing.*: thingId of replaceThing/)]);
  });
});

describe('ids the generated cases use', () => {
  it('never sends a write, or a request without valid credentials, to the example id', async () => {
    const contract = await loadContract(EVOLVED);
    const { cases } = generateCases(contract, { seed: 1, token: 'k', kinds: undefined, maxCases: undefined });
    const onItem = (s: Step) => s.operation.parameters.some((p) => p.in === 'path' && p.name === 'petId');
    const exposed = (s: Step) => s.auth !== 'default' || s.operation.method !== 'GET';
    const steps = cases.flatMap((c) =>
      c.steps.filter((s) => onItem(s) && exposed(s)).map((s) => ({ id: c.id, petId: s.path.petId })),
    );
    expect(steps.length).toBeGreaterThan(50);
    expect(steps.filter((s) => s.petId === 42 || s.petId === undefined)).toEqual([]);
  });

  // Issue 22, part 3: every kind reads ids, lists and reads back from the resource model, not from a field named id.
  it('reads the library contract through its resource model: memberId, isbn, nested books under records of the run', async () => {
    const contract = await loadContract(LIBRARY);
    const { cases, notMade } = generateCases(contract, { seed: 1, token: 'k', kinds: undefined, maxCases: undefined });
    const ids = cases.map((c) => c.id);
    // memberId is readOnly: the service assigns it, so two creates must get two.
    expect(ids).toEqual(expect.arrayContaining(['ids/createMember/concurrent-burst', 'ids/createMember/client-sent-id']));
    // A book created with a fresh ISBN of its own is read back by it, under the author its create was sent to.
    const roundTrip = cases.find((c) => c.id === 'valid-bodies/addBook/required-fields-only');
    const [create, read] = (roundTrip?.steps ?? []).filter((s) => !s.setup);
    expect(create?.operation.operationId).toBe('addBook');
    expect(read?.operation.operationId).toBe('getBook');
    expect(read?.path).toEqual({ authorId: create?.path.authorId, bookId: '{{created.body.isbn}}' });
    expect(String(create?.path.authorId)).toMatch(/^\{\{bound0\.body\.id\}\}$/);
    expect(create?.body).toMatchObject({ kind: 'json', value: { isbn: expect.stringMatching(/^978\d{10}$/) } });
    // No request of any case carries undefined or null in its URL.
    const empty = cases.flatMap((c) =>
      c.steps.flatMap((s) =>
        Object.entries(s.path)
          .filter(([, value]) => value === undefined || value === null)
          .map(([name]) => `${c.id} ${name}`),
      ),
    );
    expect(empty).toEqual([]);
    // What the model cannot give a case is said, by operation, never dropped in silence.
    expect(notMade).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ operationId: 'addBook', reason: expect.stringMatching(/isbn is named by the client/) }),
      ]),
    );
  });
});

// The cases of a contract given as text, loaded as the tools load any file.
async function generateFrom(yaml: string) {
  const file = join(await mkdtemp(join(tmpdir(), 'contract-')), 'openapi.yaml');
  await writeFile(file, yaml);
  return { file, ...generateCases(await loadContract(file), { seed: 1, token: 'k', kinds: undefined, maxCases: undefined }) };
}

describe('cases that take a field away and page a list', () => {
  it.each([
    [EVOLVED, ['effects/listOrders/page-advances', 'effects/patchPet/patch-null-removes', 'effects/updatePet/put-replaces']],
    [
      LIBRARY,
      ['effects/listAuthors/page-advances', 'effects/patchBook/patch-null-removes', 'effects/replaceAuthor/put-replaces'],
    ],
  ])('are made for %s', async (file, expected) => {
    const contract = await loadContract(file);
    const { cases } = generateCases(contract, { seed: 1, token: 'k', kinds: ['effects'], maxCases: undefined });
    const ids = cases.map((c) => c.id).filter((id) => /page-advances|patch-null-removes|put-replaces/.test(id));
    expect(ids.sort()).toEqual(expected);
    // The pages hold only the case's own records: one filter value of its own on 4 creates and both reads, another
    // on a create before them and one after, which a list that ignores the filter shows.
    const paged = cases.find((c) => c.id === expected[0]);
    const reads = paged?.steps.filter((s) => s.operation.method === 'GET') ?? [];
    const creates = paged?.steps.filter((s) => s.operation.method === 'POST' && !s.setup) ?? [];
    const field = file === EVOLVED ? 'petId' : 'country';
    const filterValue = (s: (typeof creates)[number]) => String((s.body as { value: Record<string, unknown> }).value[field]);
    const asked = String(reads[0]?.query[field]);
    expect(creates.map((s) => filterValue(s) === asked)).toEqual([false, true, true, true, true, false]);
    expect(filterValue(creates[0] as (typeof creates)[number])).toBe(filterValue(creates[5] as (typeof creates)[number]));
    expect(reads.map((s) => Object.keys(s.query).sort())).toEqual(
      file === EVOLVED
        ? [
            ['limit', 'petId'],
            ['limit', 'offset', 'petId'],
          ]
        : [
            ['country', 'per_page'],
            ['country', 'page', 'per_page'],
          ],
    );
  });

  it('says so where a list pages by offset but has no filter to keep other cases out of its pages', async () => {
    const { notMade } = await generateFrom(
      WRAPPED.replace('[{name: limit,', '[{name: offset, in: query, schema: {type: integer}}, {name: limit,'),
    );
    expect(notMade).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          operationId: 'listWidgets',
          cases: 'effects/listWidgets/page-advances',
          reason: expect.stringMatching(/has no filter on a free text or number field/),
        }),
      ]),
    );
  });
});

describe('a list that wraps its records', () => {
  it('gets its cases read at the pointer: pages counted, marks looked for, nothing said not made', async () => {
    const { cases, notMade } = await generateFrom(WRAPPED);
    expect(cases.map((c) => c.id)).toEqual(
      expect.arrayContaining([
        'ids/createWidget/concurrent-burst',
        'ids/createWidget/stored-once',
        'invalid-bodies/createWidget/refused-adds-nothing',
        'effects/createWidget/created-readable',
        'pagination/listWidgets/limit-maximum',
      ]),
    );
    const full = cases.find((c) => c.id === 'pagination/listWidgets/limit-maximum');
    expect(full?.steps.at(-1)?.expect).toMatchObject({ bodyLength: { equals: 50 }, listAt: ['items'] });
    expect(notMade).toEqual([]);
  });
});

const WRAPPED = `openapi: 3.0.3
info: {title: Widgets, version: '1'}
servers: [{url: 'http://127.0.0.1/api'}]
security: [{bearerAuth: []}]
paths:
  /widgets:
    get:
      operationId: listWidgets
      parameters: [{name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 50}}]
      responses:
        '200':
          description: ok
          content: {application/json: {schema: {type: object, properties: {items: {type: array, items: {$ref: '#/components/schemas/Widget'}}, next: {type: string}}}}}
    post:
      operationId: createWidget
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Widget'}}}}
        '400': {description: bad}
        '401': {description: no key}
  /widgets/{widgetId}:
    parameters: [{name: widgetId, in: path, required: true, schema: {type: integer}}]
    get:
      operationId: getWidget
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Widget'}}}}
        '404': {description: none}
components:
  securitySchemes: {bearerAuth: {type: http, scheme: bearer}}
  schemas:
    Widget:
      type: object
      required: [id, name]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
`;

const NO_CREATE = `openapi: 3.0.3
info: {title: Things, version: '1'}
servers: [{url: 'http://127.0.0.1/api'}]
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Thing'}}}}}
  /things/{thingId}:
    parameters: [{name: thingId, in: path, required: true, schema: {type: integer}}]
    get:
      operationId: getThing
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
        '404': {description: none}
    put:
      operationId: replaceThing
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
        '400': {description: bad}
components:
  schemas:
    Thing:
      type: object
      required: [id, name]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
`;
