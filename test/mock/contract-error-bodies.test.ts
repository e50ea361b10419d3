import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/conformance/run-conformance.js';
import type { Validator } from '../../src/contract/compile-schema.js';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import { call, type Reply } from '../support/http.js';
import { libraryRun } from '../support/library-run.js';
import { sendRaw } from '../support/send-raw.js';
import { startMock } from '../support/start-mock.js';

const LIBRARY = 'test/contracts/library-api/openapi.yaml';
const AUTHOR = '00000000-0000-4000-8000-000000000000';

/** The body validated against the contract's own schema, returned as an object. */
function valid(reply: Reply, schema: Validator | undefined): Record<string, unknown> {
  expect(schema).toBeDefined();
  expect(schema?.(reply.json, 'body'), reply.text).toEqual([]);
  return reply.json as Record<string, unknown>;
}

describe('error answers on a contract whose errors are a Problem {status, title}', async () => {
  // startMock: its self-check holds every answer of the file to the library contract as well.
  const mock = await startMock({ contract: LIBRARY, fixtures: false });
  const problem = mock.contract.schemas.get('Problem');

  it('answers a body the contract refuses with its Problem: the status, the message as title, the code beside', async () => {
    const reply = await call(mock.url, 'POST', '/authors', { body: { country: 'PT' } });
    expect(reply.status).toBe(400);
    expect(reply.headers['content-type']).toBe('application/json');
    const body = valid(reply, problem);
    expect(body).toEqual({ status: 400, title: expect.stringContaining('body.name: is required'), code: 'validation_failed' });
  });

  it('answers a missing key and an unknown record in the same shape', async () => {
    const refused = await call(mock.url, 'GET', '/authors', { auth: null });
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="petstore"');
    expect(valid(refused, problem)).toMatchObject({ status: 401, code: 'missing_authorization' });
    const missing = await call(mock.url, 'GET', `/authors/${AUTHOR}`);
    expect(missing.status).toBe(404);
    expect(valid(missing, problem)).toMatchObject({ status: 404, code: 'record_not_found' });
  });

  it('answers Prefer: code= and a path of the API that names no operation in the same shape', async () => {
    const asked = await call(mock.url, 'GET', `/authors/${AUTHOR}`, { headers: { prefer: 'code=404' } });
    expect(asked.status).toBe(404);
    expect(valid(asked, problem)).toMatchObject({ status: 404, title: expect.stringContaining('code=404 asked for') });
    const unknown = await call(mock.url, 'GET', '/members/');
    expect(unknown.status).toBe(404);
    expect(valid(unknown, problem)).toMatchObject({ status: 404, code: 'not_found' });
  });

  it("keeps the mock's own Error body outside the API: the admin endpoints and a refused Host", async () => {
    const admin = await call(new URL(mock.url).origin, 'GET', '/__admin/nothing', { auth: null });
    expect(admin.status).toBe(404);
    expect(admin.json).toEqual({ code: 'not_found', message: expect.any(String), status: 404 });
    const raw = await sendRaw(mock.port, 'GET /api/authors HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n');
    expect(raw).toContain('{"code":"host_not_allowed","message":');
  });
});

describe('the runner against the mock on the library contract', async () => {
  // Not startMock: the run's generated cases ask for statuses the contract does not document (a 401 on getAuthor),
  // which the self-check would flag; what this test counts is the runner's own body-schema findings.
  const mock = await createMockServer({ contract: LIBRARY, fixtures: false, port: 0, host: '127.0.0.1' });
  afterAll(() => mock.close());

  it('finds no error body that breaks the contract (it found 232 when the mock sent its own Error body)', async () => {
    const result = await runConformance(
      libraryRun({ target: mock.url, token: DEV_API_KEY, scenarios: [], contract: LIBRARY, seed: 1 }),
    );
    const findings = result.scenarios.flatMap((s) => s.findings);
    const bodySchema = findings
      .flatMap((f) => [f.checkId, ...f.consequences.map((c) => c.checkId)])
      .filter((id) => id === 'body-schema');
    expect(result.totals.exchanges).toBeGreaterThan(1000);
    expect(bodySchema).toEqual([]);
  }, 120_000);
});

// A nested {error: {code, message}} beside a required traceId; one operation's 404 an RFC 9457 Problem in
// application/problem+json whose type must be an absolute URI.
const GADGETS = `openapi: 3.0.3
info: {title: Gadgets, version: 1.0.0}
servers: [{url: "http://127.0.0.1:4010/v2"}]
security: [{bearerAuth: []}]
paths:
  /gadgets:
    post:
      operationId: createGadget
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: "#/components/schemas/Gadget"}}}
      responses:
        "201": {description: Made, content: {application/json: {schema: {$ref: "#/components/schemas/Gadget"}}}}
        "400": {$ref: "#/components/responses/Failure"}
        "401": {$ref: "#/components/responses/Failure"}
  /gadgets/{gadgetId}:
    get:
      operationId: getGadget
      parameters: [{name: gadgetId, in: path, required: true, schema: {type: string}}]
      responses:
        "200": {description: The gadget, content: {application/json: {schema: {$ref: "#/components/schemas/Gadget"}}}}
        "404":
          description: No such gadget
          content: {application/problem+json: {schema: {$ref: "#/components/schemas/Problem"}}}
components:
  securitySchemes: {bearerAuth: {type: http, scheme: bearer}}
  responses:
    Failure:
      description: A failure.
      content: {application/json: {schema: {$ref: "#/components/schemas/Failure"}}}
  schemas:
    Gadget:
      type: object
      required: [id, name]
      properties:
        id: {type: string, readOnly: true}
        name: {type: string}
    Failure:
      type: object
      additionalProperties: false
      required: [error, traceId]
      properties:
        error:
          type: object
          additionalProperties: false
          required: [code, message]
          properties:
            code: {type: string}
            message: {type: string}
            target: {type: string}
        traceId: {type: string, format: uuid, example: 0b6f1c9e-2d3a-4b5c-8d7e-9f0a1b2c3d4e}
    Problem:
      type: object
      required: [type, title, status, detail]
      properties:
        type: {type: string, format: uri}
        title: {type: string}
        status: {type: integer}
        detail: {type: string}
`;

describe('error answers on a contract with a nested error object and an RFC 9457 Problem', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'error-bodies-'));
  const file = join(dir, 'openapi.yaml');
  await writeFile(file, GADGETS);
  // Not startMock: a 406 and an unknown path are statuses this contract does not document.
  const mock = await createMockServer({ contract: file, fixtures: false, port: 0, host: '127.0.0.1' });
  afterAll(() => mock.close());
  const failure = mock.contract.schemas.get('Failure');

  it('answers the nested shape with the extra required field from its example', async () => {
    const reply = await call(mock.url, 'POST', '/gadgets', { body: {} });
    expect(reply.status).toBe(400);
    expect(valid(reply, failure)).toEqual({
      error: { code: 'validation_failed', message: expect.stringContaining('body.name') },
      traceId: '0b6f1c9e-2d3a-4b5c-8d7e-9f0a1b2c3d4e',
    });
    const refused = await call(mock.url, 'POST', '/gadgets', { body: { name: 'x' }, auth: 'Basic eDp5' });
    expect(refused.status).toBe(401);
    expect(valid(refused, failure)).toMatchObject({ error: { code: 'unsupported_auth_scheme' } });
  });

  it('answers a documented Problem in application/problem+json: about:blank, the reason phrase, the message as detail', async () => {
    const reply = await call(mock.url, 'GET', '/gadgets/nope');
    expect(reply.status).toBe(404);
    expect(reply.headers['content-type']).toBe('application/problem+json');
    expect(valid(reply, mock.contract.schemas.get('Problem'))).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'no record of /gadgets has id nope',
      code: 'record_not_found',
    });
  });

  it("answers a status the operation does not document, and an unknown path, in the contract's most common error body", async () => {
    const refused = await call(mock.url, 'GET', '/gadgets/nope', { headers: { accept: 'text/html' } });
    expect(refused.status).toBe(406);
    expect(refused.headers['content-type']).toBe('application/json');
    expect(valid(refused, failure)).toMatchObject({ error: { code: 'not_acceptable' } });
    const unknown = await call(mock.url, 'GET', '/widgets');
    expect(unknown.status).toBe(404);
    expect(valid(unknown, failure)).toMatchObject({ error: { code: 'not_found' } });
  });
});
