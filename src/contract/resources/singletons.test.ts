import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../load-contract.js';
import { inferResources } from './infer-resources.js';

const singletonsOf = async (file: string) => inferResources(await loadContract(file)).singletons ?? [];

describe('singletons (rule 12)', () => {
  it('finds a record at the top and one per item of a stateful resource, with their operations', async () => {
    const found = await singletonsOf('test/contracts/singletons/openapi.yaml');
    expect(found.map((s) => [s.key, s.parent, s.operations.map((o) => o.kind)])).toEqual([
      ['/settings', undefined, ['get', 'replace', 'merge-patch']],
      ['/projects/{}/settings', '/projects', ['get', 'replace', 'merge-patch']],
    ]);
    expect(found[1]?.path).toBe('/projects/{projectId}/settings');
  });

  it('takes a GET of an object with a PUT or PATCH of one, and nothing else', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'singletons-'));
    const file = join(dir, 'openapi.yaml');
    await writeFile(file, CANDIDATES);
    expect((await singletonsOf(file)).map((s) => s.key)).toEqual(['/me', '/account/preferences']);
    await rm(dir, { recursive: true });
    expect(await singletonsOf('openapi.yaml')).toEqual([]);
    expect(await singletonsOf('test/contracts/library-api/openapi.yaml')).toEqual([]);
  });
});

const object = '{type: object, properties: {name: {type: string}}}';
const get = (schema: string) =>
  `get: {operationId: get${n()}, responses: {"200": {description: x, content: {application/json: {schema: ${schema}}}}}}`;
const put = (schema: string) =>
  `put: {operationId: put${n()}, requestBody: {content: {application/json: {schema: ${schema}}}}, responses: {"200": {description: x}}}`;
const patch = (media: string) =>
  `patch: {operationId: patch${n()}, requestBody: {content: {${media}: {schema: ${object}}}}, responses: {"204": {description: x}}}`;
let count = 0;
const n = () => ++count;

// Two single records, and a path for each way of not being one.
const CANDIDATES = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /me: {${get(object)}, ${put(object)}}
  /account/preferences: {${get(object)}, ${patch('application/merge-patch+json')}}
  /tags: {${get(`{type: array, items: ${object}}`)}, ${put(`{type: array, items: ${object}}`)}}
  /page: {${get(`{type: object, properties: {items: {type: array, items: ${object}}}}`)}, ${put(object)}}
  /status: {${get(object)}}
  /theme: {${get(object)}, ${put('{type: string}')}}
  /json-patch: {${get(object)}, ${patch('application/json-patch+json')}}
  /avatar: {${get(object)}, ${put(object)}, delete: {operationId: del, responses: {"204": {description: x}}}}
  /orgs/{org}/billing/settings:
    parameters: [{name: org, in: path, required: true, schema: {type: string}}]
    ${get(object)}
    ${put(object)}
`;
