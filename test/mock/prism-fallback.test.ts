import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { defaultContractPath } from '../../src/contract/load-contract.js';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

// The wider interface has store order operations (seed: "not shown"); one is added to a copy of the contract
// here to show that an operation without a stateful handler is served from the contract by Prism at once.
async function contractWithOrders(): Promise<string> {
  const document = parse(await readFile(defaultContractPath(), 'utf8'));
  document.paths['/store/orders'] = {
    get: {
      operationId: 'listOrders',
      parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 10 } }],
      responses: {
        200: {
          description: 'Orders',
          content: {
            'application/json': {
              schema: { type: 'array', items: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } },
              examples: { first: { value: [{ id: 7 }] }, many: { value: [{ id: 8 }, { id: 9 }] } },
            },
          },
        },
        401: { $ref: '#/components/responses/Unauthorized' },
        503: {
          description: 'Down for maintenance',
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/Error' },
              example: { code: 'maintenance', message: 'back soon', status: 503 },
            },
          },
        },
      },
    },
  };
  const file = join(await mkdtemp(join(tmpdir(), 'petstore-contract-')), 'openapi.yaml');
  await writeFile(file, stringify(document));
  return file;
}

describe('operations without state, served by Prism', async () => {
  const lines: string[] = [];
  const mock = await startMock({ contract: await contractWithOrders(), log: (line) => lines.push(line) });

  it('answers from the contract’s example', async () => {
    const reply = await call(mock.url, 'GET', '/store/orders');
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual([{ id: 7 }]);
  });

  it('answers HEAD like GET, without the body (RFC 9110 §9.3.2)', async () => {
    const get = await call(mock.url, 'GET', '/store/orders');
    const head = await call(mock.url, 'HEAD', '/store/orders');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect((await call(mock.url, 'DELETE', '/store/orders')).headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('answers Prefer: example=<name> with that named example, as Prism does', async () => {
    const reply = await call(mock.url, 'GET', '/store/orders', { headers: { prefer: 'example=many' } });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual([{ id: 8 }, { id: 9 }]);
    expect(reply.headers['preference-applied']).toBe('example=many');
  });

  it('answers Prefer: dynamic=true with a body made from the schema', async () => {
    const reply = await call(mock.url, 'GET', '/store/orders', { headers: { prefer: 'dynamic=true' } });
    expect(reply.status).toBe(200);
    expect(reply.headers['preference-applied']).toBe('dynamic=true');
    expect(Array.isArray(reply.json)).toBe(true);
    for (const order of reply.json as { id: unknown }[]) expect(Number.isInteger(order.id)).toBe(true);
  });

  it('lets example= win over dynamic=true, as Prism does, and says dynamic was not applied', async () => {
    for (const prefer of ['dynamic=true, example=many', 'example=many; dynamic=true']) {
      const reply = await call(mock.url, 'GET', '/store/orders', { headers: { prefer } });
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual([{ id: 8 }, { id: 9 }]);
      expect(reply.headers['preference-applied']).toBe('example=many');
      expect(lines.at(-1)).toContain('(not applied: dynamic=true: example=many answers instead)');
    }
  });

  it('answers an Accept that allows no JSON with 406 and the mock’s Error body, as for the operations with state', async () => {
    const reply = await call(mock.url, 'GET', '/store/orders', { headers: { accept: 'application/xml' } });
    expect(reply.status).toBe(406);
    expect(reply.json).toEqual({
      code: 'not_acceptable',
      message: 'header.accept: application/xml allows none of the media types listOrders answers in (application/json)',
      status: 406,
    });
  });

  it('answers an example the contract does not have with a 400 naming it', async () => {
    const reply = await call(mock.url, 'GET', '/store/orders', { headers: { prefer: 'example=none' } });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code: 'invalid_parameter', status: 400 });
    expect((reply.json as { message: string }).message).toContain('example=none');
  });

  it('offers only the examples of the answer Prism gives, and refuses a rule with another one', async () => {
    // The 401's example (the contract's Error) is named `default`: no example of the success answer.
    const reply = await call(mock.url, 'GET', '/store/orders', { headers: { prefer: 'example=default' } });
    expect(reply.status).toBe(400);
    expect((reply.json as { message: string }).message).toMatch(/examples: first, many\)/);
    const origin = new URL(mock.url).origin;
    const rule = await call(origin, 'POST', '/__admin/rules', {
      auth: null,
      body: { operationId: 'listOrders', prefer: 'example=default' },
    });
    expect(rule.status).toBe(400);
  });

  it("answers code= for a documented status with the contract example's own code, one the mock does not know", async () => {
    const reply = await call(mock.url, 'GET', '/store/orders', { headers: { prefer: 'code=503' } });
    expect(reply.status).toBe(503);
    expect(reply.json).toMatchObject({ code: 'maintenance', status: 503 });
  });

  it('says example= was not applied when an error code= answers instead', async () => {
    lines.length = 0;
    const reply = await call(mock.url, 'GET', '/store/orders', { headers: { prefer: 'code=404, example=many' } });
    expect(reply.status).toBe(404);
    expect(lines.join('\n')).toMatch(/example=many: code=404 answers with an Error body instead/);
  });

  it('still enforces the key and validates parameters, with the contract’s Error body', async () => {
    const denied = await call(mock.url, 'GET', '/store/orders', { auth: null });
    expect(denied.status).toBe(401);
    expect(denied.json).toMatchObject({ code: 'missing_authorization', status: 401 });
    const invalid = await call(mock.url, 'GET', '/store/orders?limit=11');
    expect(invalid.status).toBe(400);
    expect(invalid.json).toEqual({ code: 'invalid_parameter', message: 'query.limit: must be <= 10', status: 400 });
  });
});
