import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { call } from '../support/http.js';

// A list whose limit and offset are int32 with no minimum, as a Go/kratos contract writes them: -1 is valid.
const CONTRACT = `openapi: 3.0.3
info: {title: Articles, version: "1"}
paths:
  /articles:
    get:
      parameters:
        - {name: limit, in: query, schema: {type: integer, format: int32}}
        - {name: offset, in: query, schema: {type: integer, format: int32}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Article"}}}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: "#/components/schemas/Article"}}}}
      responses:
        "201": {description: made, content: {application/json: {schema: {$ref: "#/components/schemas/Article"}}}}
  /articles/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Article"}}}}
        "404": {description: none}
components:
  schemas:
    Article: {type: object, required: [title], properties: {id: {type: integer, readOnly: true}, title: {type: string}}}
`;

describe('a page size or offset the contract sets no bound for', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'unbounded-paging-'));
  await writeFile(join(dir, 'openapi.yaml'), CONTRACT);
  const mock = await createMockServer({ contract: join(dir, 'openapi.yaml'), port: 0, host: '127.0.0.1', fixtures: false });
  afterAll(() => mock.close());
  for (const title of ['first', 'second']) await call(mock.url, 'POST', '/articles', { body: { title } });
  const titles = async (query: string) => {
    const answer = await call(mock.url, 'GET', `/articles?${query}`);
    expect(answer.status, answer.text).toBe(200);
    return (answer.json as { title: string }[]).map((article) => article.title);
  };

  it('is read as the nearest that means something, never refused with the 400 the list does not document', async () => {
    expect(await titles('limit=-2147483648')).toEqual([]);
    expect(await titles('limit=-1')).toEqual([]);
    expect(await titles('offset=-5')).toEqual(['second', 'first']);
    expect(await titles('limit=1&offset=-5')).toEqual(['second']);
    expect(await titles('limit=2147483647&offset=1')).toEqual(['first']);
  });
});
