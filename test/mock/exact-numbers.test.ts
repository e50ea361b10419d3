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

  it.each(['1e-400', '0.99999999999999999999', '1.5', '9223372036854775808.0'])(
    'refuses categoryId %s, which is not an int64, with a 400 Error',
    async (literal) => {
      const refused = await create(literal);
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject({ status: 400 });
    },
  );
});
