import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

describe('createPet judges numbers on their exact value', async () => {
  const mock = await startMock();
  const create = (categoryId: string) =>
    call(mock.url, 'POST', '/pets', { body: `{"name":"Exact","categoryId":${categoryId}}`, headers: JSON_HEADERS });

  it.each([
    ['1.0', '1'],
    ['1e3', '1000'],
    ['9223372036854775807.0', '9223372036854775807'],
  ])('takes categoryId %s as the integer %s, every digit kept', async (literal, stored) => {
    const created = await create(literal);
    expect(created.status).toBe(201);
    expect(created.text).toContain(`"categoryId":${stored}`);
  });

  it.each(['1e-400', '0.99999999999999999999', '1.5', '9007199254740993.5', '9223372036854775808.0'])(
    'refuses categoryId %s, which is not an int64, as invalid (valid JSON, not an integer)',
    async (literal) => {
      const refused = await create(literal);
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject({ status: 400, code: 'validation_failed' });
    },
  );

  it('takes a body whose unknown field holds a decimal a double reads as an integer (valid JSON)', async () => {
    const created = await call(mock.url, 'POST', '/pets', {
      body: '{"name":"A","categoryId":1,"weight":2.00000000000000000001,"w":1e-400}',
      headers: JSON_HEADERS,
    });
    expect(created.status).toBe(201);
  });
});

describe('reading a body costs time linear in its length', async () => {
  const mock = await startMock();
  const MiB = 1024 * 1024 - 64;

  // Each used to backtrack or convert a megabyte of digits: 1.000…01 blocked the mock for minutes.
  it.each([
    ['a decimal with a megabyte of zeros', `{"name":"a","categoryId":1.${'0'.repeat(MiB - 40)}1}`],
    ['an integer with a megabyte of digits', `{"name":"a","categoryId":1${'0'.repeat(MiB - 40)}}`],
    ['a string of digit runs and a fraction', `{"name":"${'1234567890123456'.repeat(MiB / 16 - 4)}","categoryId":1.5}`],
  ])('answers %s at once, with a 400 that does not repeat it', async (_, body) => {
    const pending = create(body);
    // The mock keeps serving while it reads: a list is answered before or beside the big body.
    expect((await call(mock.url, 'GET', '/pets?limit=1')).status).toBe(200);
    const reply = await pending;
    expect(reply.status).toBe(400);
    expect(reply.text.length).toBeLessThan(1000);
  });

  function create(body: string) {
    return call(mock.url, 'POST', '/pets', { body, headers: JSON_HEADERS });
  }
});
