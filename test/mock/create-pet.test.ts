import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

describe('createPet', async () => {
  const mock = await startMock();

  it('answers 201 with the stored pet, which getPet then returns', async () => {
    const created = await call(mock.url, 'POST', '/pets', { body: { name: 'Rex', categoryId: 7, status: 'pending' } });
    expect(created.status).toBe(201);
    const pet = created.json as { id: number };
    expect(pet).toEqual({ id: pet.id, name: 'Rex', categoryId: 7, status: 'pending' });
    expect(created.headers.location).toBe(`/v1/pets/${pet.id}`);
    const fetched = await call(mock.url, 'GET', `/pets/${pet.id}`);
    expect(fetched.json).toEqual(pet);
  });

  it('gives a pet without status the status available (the mock’s choice)', async () => {
    const created = await call(mock.url, 'POST', '/pets', { body: { name: 'Plain', categoryId: 1 } });
    expect((created.json as { status: string }).status).toBe('available');
  });

  it('never lets a client-sent id override the server’s, and drops unknown fields', async () => {
    const created = await call(mock.url, 'POST', '/pets', { body: { id: 1, name: 'Sneaky', categoryId: 1, colour: 'red' } });
    expect(created.status).toBe(201);
    const pet = created.json as Record<string, unknown>;
    expect(pet.id).not.toBe(1);
    expect(pet).not.toHaveProperty('colour');
    expect((await call(mock.url, 'GET', '/pets/1')).json).toMatchObject({ name: 'Rex' });
  });

  it.each(['9007199254740993', '9223372036854775807', '-9223372036854775808'])(
    'keeps categoryId %s with every digit',
    async (digits) => {
      const created = await call(mock.url, 'POST', '/pets', {
        body: `{"name":"Big","categoryId":${digits}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(created.status).toBe(201);
      expect(created.text).toContain(`"categoryId":${digits}`);
      const id = (created.json as { id: number }).id;
      expect((await call(mock.url, 'GET', `/pets/${id}`)).text).toContain(`"categoryId":${digits}`);
      expect((await call(mock.url, 'GET', '/pets?limit=100')).text).toContain(`"categoryId":${digits}`);
    },
  );

  const json = { 'content-type': 'application/json' };
  it.each([
    ['a missing name', { body: '{"categoryId":1}', headers: json }, 'validation_failed', 'body.name: is required'],
    ['a missing categoryId', { body: '{"name":"a"}', headers: json }, 'validation_failed', 'body.categoryId: is required'],
    [
      'a string categoryId',
      { body: '{"name":"a","categoryId":"1"}', headers: json },
      'validation_failed',
      'body.categoryId: must be integer',
    ],
    [
      'a fractional categoryId',
      { body: '{"name":"a","categoryId":1.5}', headers: json },
      'validation_failed',
      'body.categoryId: must be integer',
    ],
    [
      'a name that is not a string',
      { body: '{"name":5,"categoryId":1}', headers: json },
      'validation_failed',
      'body.name: must be string',
    ],
    [
      'an unknown status',
      { body: '{"name":"a","categoryId":1,"status":"lost"}', headers: json },
      'validation_failed',
      'body.status: must be one of "available", "pending", "sold"',
    ],
    [
      'categoryId 2^63',
      { body: '{"name":"a","categoryId":9223372036854775808}', headers: json },
      'validation_failed',
      'body.categoryId: must be an int64 integer',
    ],
    [
      'categoryId below -2^63',
      { body: '{"name":"a","categoryId":-9223372036854775809}', headers: json },
      'validation_failed',
      'body.categoryId: must be an int64 integer',
    ],
    ['an array body', { body: '[]', headers: json }, 'validation_failed', 'body: must be object'],
    ['a string body', { body: '"pet"', headers: json }, 'validation_failed', 'body: must be object'],
    ['invalid JSON', { body: '{"name":', headers: json }, 'invalid_json', 'body: the request body is not valid JSON'],
    [
      'a body that is not UTF-8 (a latin1 é)',
      {
        body: Buffer.concat([Buffer.from('{"name":"Ren'), Buffer.from([0xe9]), Buffer.from('","categoryId":1}')]),
        headers: json,
      },
      'invalid_json',
      'body: the request body is not valid UTF-8',
    ],
    ['an empty body', { body: '', headers: json }, 'missing_body', 'body: a JSON request body is required'],
    ['no Content-Type', { body: '{"name":"a","categoryId":1}' }, 'invalid_content_type', 'the request has no Content-Type'],
    [
      'Content-Type text/plain',
      { body: '{"name":"a","categoryId":1}', headers: { 'content-type': 'text/plain' } },
      'invalid_content_type',
      'Content-Type text/plain is not accepted',
    ],
    [
      'a charset other than UTF-8',
      { body: '{"name":"a","categoryId":1}', headers: { 'content-type': 'application/json; charset=latin1' } },
      'invalid_content_type',
      'Content-Type charset latin1 is not accepted: JSON is UTF-8',
    ],
    [
      'a quoted charset other than UTF-8',
      { body: '{"name":"a","categoryId":1}', headers: { 'content-type': 'application/json;charset="ISO-8859-1"' } },
      'invalid_content_type',
      'Content-Type charset ISO-8859-1 is not accepted',
    ],
    [
      'Content-Encoding: gzip',
      { body: '{"name":"a","categoryId":1}', headers: { ...json, 'content-encoding': 'gzip' } },
      'unsupported_content_encoding',
      'Content-Encoding gzip is not accepted: the mock does not decode request bodies',
    ],
    [
      'a body really gzipped (bytes that are not UTF-8)',
      { body: gzipSync('{"name":"Gz","categoryId":1}'), headers: { ...json, 'content-encoding': 'gzip' } },
      'unsupported_content_encoding',
      'Content-Encoding gzip is not accepted',
    ],
    [
      'Content-Encoding: identity, br',
      { body: '{"name":"a","categoryId":1}', headers: { ...json, 'content-encoding': 'identity, br' } },
      'unsupported_content_encoding',
      'Content-Encoding identity, br is not accepted',
    ],
  ])('answers 400 for %s', async (_, request, code, message) => {
    const before = mock.store.size;
    const reply = await call(mock.url, 'POST', '/pets', request);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code, status: 400 });
    expect((reply.json as { message: string }).message).toContain(message);
    expect(mock.store.size).toBe(before);
  });

  it.each<Record<string, string>>([
    { 'content-type': 'application/json; charset=utf-8' },
    { 'content-type': 'application/json; charset="UTF-8"' },
    { 'content-type': 'application/json', 'content-encoding': 'identity' },
  ])('accepts a UTF-8 body sent as it is: %j', async (headers) => {
    const reply = await call(mock.url, 'POST', '/pets', { body: '{"name":"a","categoryId":1}', headers });
    expect(reply.status).toBe(201);
  });

  it('gives 500 parallel creates 500 distinct ids that can all be fetched', async () => {
    const replies = await Promise.all(
      Array.from({ length: 500 }, (_, i) => call(mock.url, 'POST', '/pets', { body: { name: `Pet ${i}`, categoryId: i } })),
    );
    expect(replies.every((r) => r.status === 201)).toBe(true);
    const ids = new Set(replies.map((r) => (r.json as { id: number }).id));
    expect(ids.size).toBe(500);
    const fetched = await Promise.all([...ids].map((id) => call(mock.url, 'GET', `/pets/${id}`)));
    expect(fetched.every((r) => r.status === 200)).toBe(true);
    expect(fetched.map((r) => (r.json as { name: string }).name).sort()).toEqual(
      replies.map((r) => (r.json as { name: string }).name).sort(),
    );
  });
});

describe('createPet at capacity', async () => {
  const mock = await startMock({ fixtures: false, maxPets: 2 });

  it('answers 409 store_full once --max-pets pets are stored, and keeps serving', async () => {
    for (let i = 0; i < 2; i++)
      expect((await call(mock.url, 'POST', '/pets', { body: { name: 'a', categoryId: 1 } })).status).toBe(201);
    const full = await call(mock.url, 'POST', '/pets', { body: { name: 'a', categoryId: 1 } });
    expect(full.status).toBe(409);
    expect(full.json).toMatchObject({ code: 'store_full', status: 409 });
    expect((full.json as { message: string }).message).toContain('maximum of 2 pets');
    expect(((await call(mock.url, 'GET', '/pets')).json as unknown[]).length).toBe(2);
  });
});
