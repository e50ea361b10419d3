import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/mock/create-mock-server.js';
import { call } from '../support/http.js';

// What the mock answers where its own habit (a 400, a counted id) is not what the contract gives the operation.
const CONTRACT = `openapi: 3.0.3
info: {title: Orders, version: "1"}
servers: [{url: http://127.0.0.1/shop}]
security: [{token: []}]
paths:
  /orders:
    get:
      operationId: listOrders
      parameters: [{name: sku, in: query, schema: {type: string}}]
      responses:
        '200':
          description: A page of orders.
          content:
            application/json:
              schema:
                type: object
                required: [items, total, page]
                properties:
                  items: {type: array, items: {$ref: '#/components/schemas/Order'}}
                  total: {type: integer, minimum: 0}
                  page: {type: integer, minimum: 1}
    post:
      operationId: placeOrder
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}
      responses:
        '201': {description: Placed., content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}}
        '422': {description: Invalid., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  /orders/{orderId}:
    get:
      operationId: getOrder
      parameters: [{name: orderId, in: path, required: true, schema: {type: string, pattern: '^ord_[0-9a-z]{8}$'}}]
      responses:
        '200': {description: The order., content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}}
        '404': {description: Not found., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  /settings:
    get:
      operationId: getSettings
      responses:
        '200':
          description: The settings.
          headers: {X-Version: {required: true, schema: {type: integer, minimum: 3}}}
          content: {application/json: {schema: {$ref: '#/components/schemas/Settings'}}}
components:
  securitySchemes: {token: {type: http, scheme: bearer}}
  schemas:
    Error: {type: object, required: [message], properties: {message: {type: string}}}
    Settings:
      type: object
      required: [closingTime]
      properties: {closingTime: {type: string, pattern: '^[0-2][0-9]:[0-5][0-9]$'}}
    Order:
      type: object
      required: [id, sku]
      properties:
        id: {type: string, readOnly: true, pattern: '^ord_[0-9a-z]{8}$'}
        sku: {type: string}
`;

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('the mock on a contract with its own refusal status and id pattern', () => {
  it('refuses invalid input with the 422 the operation documents (no 400), and makes ids its pattern allows', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'contract-choices-')), 'openapi.yaml');
    await writeFile(file, CONTRACT);
    mock = await createMockServer({ contract: file, port: 0, host: '127.0.0.1', log: () => {} });
    const refused = await call(mock.url, 'POST', '/orders', { body: { sku: 7 } });
    expect(refused.status).toBe(422);
    expect(refused.json).toEqual(expect.objectContaining({ message: expect.any(String) }));
    expect(
      (await call(mock.url, 'POST', '/orders', { body: '{"sku":', headers: { 'content-type': 'application/json' } })).status,
    ).toBe(422);
    const made = await call(mock.url, 'POST', '/orders', { body: { sku: 'a' } });
    expect(made.status).toBe(201);
    const id = (made.json as { id: string }).id;
    expect(id).toMatch(/^ord_[0-9a-z]{8}$/);
    expect((await call(mock.url, 'GET', `/orders/${id}`)).json).toEqual(made.json);
  });

  it("fills the members a list's page requires beside its records: a total of what the query matches, a sample", async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'contract-choices-')), 'openapi.yaml');
    await writeFile(file, CONTRACT);
    mock = await createMockServer({ contract: file, port: 0, host: '127.0.0.1', log: () => {} });
    for (const sku of ['a', 'b', 'a']) await call(mock.url, 'POST', '/orders', { body: { sku } });
    const page = await call(mock.url, 'GET', '/orders?sku=a');
    expect(page.json).toEqual({
      items: [expect.objectContaining({ sku: 'a' }), expect.objectContaining({ sku: 'a' })],
      total: 2,
      page: 1,
    });
  });

  it('answers an operation it keeps no state for with a body its schema takes and the headers it requires', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'contract-choices-')), 'openapi.yaml');
    await writeFile(file, CONTRACT);
    mock = await createMockServer({ contract: file, port: 0, host: '127.0.0.1', log: () => {} });
    const settings = await call(mock.url, 'GET', '/settings');
    expect(settings.status).toBe(200);
    expect((settings.json as { closingTime: string }).closingTime).toMatch(/^[0-2][0-9]:[0-5][0-9]$/);
    expect(settings.headers['x-version']).toBe('3');
  });
});
