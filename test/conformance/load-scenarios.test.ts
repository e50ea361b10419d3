import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load-contract.js';
import { loadScenarios } from '../../src/conformance/load-scenarios.js';

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
      /line 5: scenarios\[0\]\.steps\[0\]: \{\{create\.\.\.\}\} refers to nothing captured by an earlier step/,
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
});
