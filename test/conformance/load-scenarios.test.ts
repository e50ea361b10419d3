import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load-contract.js';
import { stringifyJson } from '../../src/contract/lossless-json.js';
import { loadScenarios } from '../../src/conformance/cases/load-scenarios.js';

const contract = await loadContract();

async function load(yaml: string): Promise<ReturnType<typeof loadScenarios>> {
  const dir = await mkdtemp(join(tmpdir(), 'scenario-format-'));
  await writeFile(join(dir, 'case.yaml'), yaml);
  return loadScenarios(dir, contract);
}

const HEAD = 'scenarios:\n  - name: one\n    description: Given, when, then.\n';
/** A file whose one step is `operation` with `fields` (one YAML line each), the first field on line 6. */
const step = (operation: string, ...fields: string[]) =>
  `${HEAD}    steps:\n      - operation: ${operation}\n${fields.map((f) => `        ${f}\n`).join('')}`;
const CREATE = "body: { name: 'Rex {{run.id}}', categoryId: 1 }";

describe('loadScenarios', () => {
  it('loads the shipped suite, every step on a contract operation', async () => {
    const scenarios = await loadScenarios('conformance', contract);
    expect(scenarios.length).toBeGreaterThan(10);
    const used = new Set(scenarios.flatMap((s) => s.steps.map((step) => step.operation.operationId)));
    expect([...used].sort()).toEqual([...contract.byId.keys()].sort());
  });

  it('reads int64 values with every digit, and names operations by METHOD /path', async () => {
    const [scenario] = await load(
      `${HEAD}    steps:\n      - operation: GET /pets/{petId}\n        params: { petId: 9223372036854775807 }\n        expect: { status: 404 }\n`,
    );
    expect(scenario?.steps[0]?.operation.operationId).toBe('getPet');
    expect(scenario?.steps[0]?.path).toEqual({ petId: 9223372036854775807n });
    expect(scenario?.steps[0]?.expect.status).toEqual([404]);
  });

  it.each([
    ['a YAML syntax error', `${HEAD}    steps: [\n`, /case\.yaml: line \d+, column \d+:/],
    [
      'an unknown field',
      `${HEAD}    steps:\n      - operation: listPets\n        expct: {}\n`,
      /line 5: scenarios\[0\]\.steps\[0\]: must not have property 'expct'/,
    ],
    [
      'a missing field',
      'scenarios:\n  - name: one\n    steps:\n      - operation: listPets\n',
      /line 2: scenarios\[0\]\.description: is required/,
    ],
    [
      'a bad status',
      `${HEAD}    steps:\n      - operation: listPets\n        expect: { status: 2xx }\n`,
      /line 6: scenarios\[0\]\.steps\[0\]\.expect\.status: must be integer, or must match pattern "\^\[1-5\]XX\$", or must be array/,
    ],
    [
      'an unknown operation',
      `${HEAD}    steps:\n      - operation: getPets\n`,
      /line 5: scenarios\[0\]\.steps\[0\]\.operation: unknown operation 'getPets' \(did you mean getPet\?\)/,
    ],
    [
      'a path the contract lacks',
      `${HEAD}    steps:\n      - operation: DELETE /pets\n`,
      /the contract has no operation DELETE \/pets/,
    ],
    ['a missing path parameter', `${HEAD}    steps:\n      - operation: getPet\n`, /getPet needs path parameter 'petId'/],
    [
      'a capture used before it is made',
      `${HEAD}    steps:\n      - operation: getPet\n        params: { petId: '{{create.body.id}}' }\n`,
      /line 6: scenarios\[0\]\.steps\[0\]\.params\.petId: \{\{create\.\.\.\}\} refers to nothing captured by an earlier step/,
    ],
    [
      'a header name that is not an RFC 9110 token',
      step('listPets', "headers: { 'bad header': v }"),
      /line 6: scenarios\[0\]\.steps\[0\]\.headers\.bad header: 'bad header' is not a header name/,
    ],
    [
      'a header value with a line break',
      step('listPets', 'headers: { x-trace: "a\\nb" }'),
      /line 6: scenarios\[0\]\.steps\[0\]\.headers\.x-trace: a header value cannot hold a control character \("\\n"\)/,
    ],
    [
      'a header value with NUL',
      step('listPets', 'headers: { x-trace: "a\\0b" }'),
      /headers\.x-trace: a header value cannot hold a control character \("\\u0000"\)/,
    ],
    [
      'a header value outside Latin-1',
      step('listPets', 'headers: { x-trace: "5 €" }'),
      /headers\.x-trace: a header value cannot hold a character outside Latin-1 \("€"\)/,
    ],
    [
      'a header the HTTP client writes itself',
      step('listPets', 'headers: { Content-Length: 5 }'),
      /headers\.Content-Length: Content-Length is written by the HTTP client/,
    ],
    [
      'an auth value with a line break',
      step('listPets', 'auth: "Bearer a\\r\\nX-Injected: 1"'),
      /line 6: scenarios\[0\]\.steps\[0\]\.auth: sent as the Authorization header, but a header value cannot hold/,
    ],
    [
      'a query value that is an object',
      step('listPets', 'query: { limit: { a: 1 } }'),
      /line 6: scenarios\[0\]\.steps\[0\]\.query\.limit: must be string,number,boolean,array/,
    ],
    [
      'a query list holding an object',
      step('listPets', 'query: { status: [sold, { a: 1 }] }'),
      /scenarios\[0\]\.steps\[0\]\.query\.status\[1\]: must be string,number,boolean/,
    ],
    [
      'a path parameter that is a list',
      step('getPet', 'params: { petId: [1] }'),
      /line 6: scenarios\[0\]\.steps\[0\]\.params\.petId: must be string,number,boolean/,
    ],
    [
      'a template that is not a capture name',
      step('createPet', "body: { name: 'Rex {{1x}}', categoryId: 1 }"),
      /line 6: scenarios\[0\]\.steps\[0\]\.body\.name: \{\{1x\}\} is not a reference/,
    ],
    [
      'a template never closed',
      step('createPet', "body: { name: 'Rex {{run.id}', categoryId: 1 }"),
      /scenarios\[0\]\.steps\[0\]\.body\.name: '\{\{run\.id\}' opens a template with \{\{ that is never closed/,
    ],
    [
      'a key the built-in run lacks',
      step('createPet', "body: { name: 'Rex {{run.idx}}', categoryId: 1 }"),
      /body\.name: the built-in 'run' has only \{\{run\.id\}\}/,
    ],
    [
      'a capture field other than status, headers and body',
      `${step('createPet', CREATE, 'capture: create')}      - operation: getPet\n        params: { petId: '{{create.id}}' }\n`,
      /line 9: scenarios\[0\]\.steps\[1\]\.params\.petId: \{\{create\.id\}\}: a capture holds status, headers and body \(did you mean \{\{create\.body\.id\}\}\?\)/,
    ],
    [
      'a template where templates are not filled in',
      step('listPets', "auth: 'Bearer {{run.id}}'"),
      /line 6: scenarios\[0\]\.steps\[0\]\.auth: templates are not filled in in auth/,
    ],
    [
      'a capture named like a built-in',
      step('createPet', CREATE, 'capture: run'),
      /line 7: scenarios\[0\]\.steps\[0\]\.capture: 'run' is built in/,
    ],
    ['a GET with a body', step('listPets', 'body: { a: 1 }'), /line 6: scenarios\[0\]\.steps\[0\]\.body: GET sends no body/],
    ['a GET with a raw body', step('getPet', 'params: { petId: 1 }', 'rawBody: x'), /line 7: .*\.rawBody: GET sends no body/],
    [
      'a description not in Given / When / Then form',
      'scenarios:\n  - name: one\n    description: Lists pets, then checks them.\n    steps:\n      - operation: listPets\n',
      /line 3: scenarios\[0\]\.description: write it as Given \.\.\., when \.\.\., then \.\.\. \(no Given, When\)/,
    ],
    [
      'bodyIncludes without an item',
      step('listPets', 'expect: { bodyIncludes: { whenShorterThan: 20 } }'),
      /line 6: scenarios\[0\]\.steps\[0\]\.expect\.bodyIncludes\.item: is required/,
    ],
    [
      'bodyIncludes.whenShorterThan above the limit asked for',
      step('listPets', 'query: { limit: 5 }', 'expect: { bodyIncludes: { item: { name: Rex }, whenShorterThan: 6 } }'),
      /line 7: .*\.expect\.bodyIncludes\.whenShorterThan: 6 is more than the 5 items the step asks for/,
    ],
    [
      "bodyIncludes.whenShorterThan above the contract's default limit",
      step('listPets', 'expect: { bodyIncludes: { item: { name: Rex }, whenShorterThan: 100 } }'),
      /whenShorterThan: 100 is more than the 20 items the step asks for/,
    ],
    [
      'an untagged scenario that changes the target',
      `${HEAD}    steps:\n      - operation: createPet\n        body: { name: Rex, categoryId: 1 }\n`,
      /scenarios\[0\]\.tags: step 1 sends POST, so the scenario must be tagged 'mutating'/,
    ],
  ])('refuses %s, naming the file, the line and the field', async (_, yaml, message) => {
    await expect(load(yaml)).rejects.toMatchObject({ code: 'scenario_invalid', message: expect.stringMatching(message) });
  });

  it('takes well-formed templates, header fields and query lists', async () => {
    const yaml =
      `${step('createPet', CREATE, "headers: { X-Trace: 'é {{ run.id }}' }", 'capture: create')}` +
      '      - operation: listPets\n        query: { status: [sold, pending], limit: 20 }\n' +
      "        expect: { bodyIncludes: { item: { id: '{{create.body.id}}' }, whenShorterThan: 20 } }\n";
    const [scenario] = await load(yaml.replace('    steps:', '    tags: [mutating]\n    steps:'));
    expect(scenario?.steps.map((s) => s.templated)).toEqual([true, true]);
    expect(scenario?.steps[0]?.headers).toEqual({ 'x-trace': 'é {{ run.id }}' });
    expect(scenario?.steps[1]?.expect.bodyIncludes).toEqual({ item: { id: '{{create.body.id}}' }, whenShorterThan: 20 });
  });

  it('names every pet the shipped suite may create with the run id, so a target that stores one can be cleaned', async () => {
    const scenarios = await loadScenarios('conformance', contract);
    const creates = scenarios.flatMap((s) => s.steps.filter((step) => step.operation.operationId === 'createPet'));
    const names = creates.flatMap((step) => {
      const text = step.body?.kind === 'raw' ? step.body.text : stringifyJson(step.body?.value ?? null);
      return [...text.matchAll(/"name":\s*"([^"]*)"/g)].map((m) => m[1]);
    });
    expect(names.length).toBeGreaterThan(15);
    expect(names.filter((name) => !name?.includes('{{run.id}}'))).toEqual([]);
  });
});
