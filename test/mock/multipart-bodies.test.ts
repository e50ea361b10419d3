import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/mock/create-mock-server.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import { call } from '../support/http.js';

// test/contracts/uploads: POST /photos takes multipart/form-data with a required file and rank (integer ≥ 1), an
// optional caption (at most 20 characters) and tags (an array).
const CONTRACT = 'test/contracts/uploads/openapi.yaml';

describe('the mock on a multipart/form-data request body (RFC 7578)', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ contract: CONTRACT, port: 0, host: '127.0.0.1', fixtures: false });
  });
  afterAll(() => mock.close());

  const upload = (form: FormData) =>
    fetch(`${mock.url}/photos`, { method: 'POST', headers: { authorization: `Bearer ${DEV_API_KEY}` }, body: form });
  const photo = (fields: Record<string, string | string[]>) => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2])], { type: 'image/png' }), 'cat.png');
    for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) form.append(name, one);
    return form;
  };

  it('takes a form whose parts match the schema: the file, text read as its type, a repeated name as an array', async () => {
    const answer = await upload(photo({ rank: '3', caption: 'A cat', tags: ['pets', 'cats'] }));
    expect(answer.status).toBe(201);
    expect(await answer.json()).toMatchObject({ id: expect.any(Number) });
  });

  it.each([
    ['a required field missing', () => photo({}), 'rank'],
    ['a field that does not read as its type', () => photo({ rank: 'first' }), 'rank'],
    ['a field outside its bounds', () => photo({ rank: '3', caption: 'x'.repeat(21) }), 'caption'],
    [
      'the required file missing',
      () => {
        const form = new FormData();
        form.append('rank', '1');
        return form;
      },
      'file',
    ],
  ])('refuses %s with a 400 naming the field', async (_what, form, field) => {
    const answer = await upload(form());
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: 'validation_failed', message: expect.stringContaining(field) });
  });

  it.each([
    ['no boundary in its Content-Type', 'multipart/form-data', '--x\r\n\r\nabc\r\n--x--\r\n', 'names no boundary'],
    ['no part at its boundary', 'multipart/form-data; boundary=x', 'garbage', 'no part begins'],
    [
      'no closing boundary',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="rank"\r\n\r\n1',
      'closing boundary',
    ],
    [
      'a part without a name',
      'multipart/form-data; boundary="x"',
      '--x\r\nContent-Type: text/plain\r\n\r\n1\r\n--x--\r\n',
      'name=',
    ],
  ])('refuses a body with %s as not well formed, with a 400 saying where', async (_what, contentType, body, says) => {
    const answer = await call(mock.url, 'POST', '/photos', { headers: { 'content-type': contentType }, body });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: 'validation_failed', message: expect.stringContaining(says) });
  });
});
