import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';
import { writeContract } from '../support/write-contract.js';

// Operations Prism answers from the schema: it makes a value for every property, writeOnly ones too (a password
// made of "string"), and the mock leaves those out of what it sends (OpenAPI: SHOULD NOT be sent in a response).
const USER = {
  type: 'object',
  required: ['name', 'password'],
  properties: { name: { type: 'string', example: 'ana' }, password: { type: 'string', writeOnly: true, minLength: 8 } },
};
const json = (schema: unknown) => ({ 200: { description: 'OK', content: { 'application/json': { schema } } } });
const CONTRACT = {
  openapi: '3.0.3',
  info: { title: 'Passwords', version: '1.0.0' },
  paths: {
    '/account': { get: { operationId: 'getAccount', responses: json(USER) } },
    '/team': {
      get: {
        operationId: 'getTeam',
        responses: json({ type: 'object', properties: { owner: USER, members: { type: 'array', items: USER } } }),
      },
    },
  },
};

describe('writeOnly properties in answers Prism makes', async () => {
  const mock = await startMock({ contract: await writeContract(CONTRACT), log: () => {} });

  it('are left out of a record', async () => {
    const reply = await call(mock.url, 'GET', '/account', { auth: null });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toEqual({ name: 'ana' });
  });

  it('are left out of records inside records and lists', async () => {
    const reply = await call(mock.url, 'GET', '/team', { auth: null });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.text).not.toContain('password');
    expect(reply.json).toMatchObject({ owner: { name: 'ana' } });
  });
});
