import { describe, expect, it } from 'vitest';
import { loadContract } from '../load-contract.js';
import { parseJson } from '../lossless-json.js';
import type { Operation } from '../operation.js';
import { judgeBodySchema } from './body-schema.js';
import { judgeContentTypeJson } from './content-type-json.js';
import { judgeErrorStatusMatches } from './error-status-matches.js';
import { judgeHeadersDocumented } from './headers-documented.js';
import { judgeJsonUtf8 } from './json-utf8.js';
import { judgeJsonWithoutBom } from './json-without-bom.js';
import type { ReceivedResponse } from './received-response.js';
import { judgeStatusDocumented } from './status-documented.js';

const answer = (status: number, text: string, headers: Record<string, string> = {}, more: Partial<ReceivedResponse> = {}) =>
  ({
    status,
    headers: { 'content-type': 'application/json', ...headers },
    text,
    json: text === '' ? undefined : parseJson(text),
    jsonError: undefined,
    ...more,
  }) as ReceivedResponse;

describe('the judgements of one answer against its operation', async () => {
  const contract = await loadContract();
  const createPet = contract.byId.get('createPet') as Operation;
  const pet = '{"id":1,"name":"a","categoryId":1,"status":"available"}';

  it('pass a conforming answer', () => {
    const ok = answer(201, pet);
    for (const judge of [judgeStatusDocumented, judgeContentTypeJson, judgeBodySchema, judgeHeadersDocumented, judgeJsonUtf8]) {
      expect(judge(createPet, ok)).toBeUndefined();
    }
    expect(judgeErrorStatusMatches(ok)).toBeUndefined();
    expect(judgeJsonWithoutBom(ok)).toBeUndefined();
  });

  it('each name what was received and what is documented', () => {
    expect(judgeStatusDocumented(createPet, answer(418, '{}'))).toMatchObject({ received: 'HTTP 418' });
    expect(judgeContentTypeJson(createPet, answer(201, pet, { 'content-type': 'text/html' }))).toMatchObject({
      title: 'Content-Type is text/html',
      documented: 'Content-Type: application/json',
    });
    expect(judgeBodySchema(createPet, answer(201, '{"name":"a"}'))?.title).toBe(
      'body does not match the 201 response of createPet',
    );
    expect(judgeErrorStatusMatches(answer(400, '{"code":"x","message":"y","status":"400"}'))?.title).toBe(
      'Error status "400" differs from the HTTP status 400',
    );
    expect(judgeJsonUtf8(createPet, answer(201, pet, {}, { invalidUtf8: true }))?.title).toBe('the body is not valid UTF-8');
    expect(judgeJsonWithoutBom(answer(201, pet, {}, { byteOrderMark: true }))).toBeDefined();
  });

  it('hold an answer to the headers its response requires', () => {
    const located = {
      ...createPet,
      responses: [{ code: '201', description: undefined, headers: [{ name: 'location', required: true }], contents: [] }],
    } as Operation;
    expect(judgeHeadersDocumented(located, answer(201, pet))).toMatchObject({ title: 'missing header location' });
    expect(judgeHeadersDocumented(located, answer(201, pet, { location: '/pets/1' }))).toBeUndefined();
  });
});
