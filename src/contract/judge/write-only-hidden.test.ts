import { describe, expect, it } from 'vitest';
import type { JsonSchema, Operation } from '../operation.js';
import type { ReceivedResponse } from './received-response.js';
import { judgeWriteOnlyHidden } from './write-only-hidden.js';

const USER: JsonSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, tags: { type: 'array', items: false as never } },
  writeOnlyProperties: ['password'],
};

function listing(schema: JsonSchema): Operation {
  const contents = [{ mediaType: 'application/json', schema, example: undefined, validate: undefined }];
  return { operationId: 'listUsers', responses: [{ code: '200', description: undefined, headers: [], contents }] } as never;
}

function answer(json: unknown): ReceivedResponse {
  return { status: 200, headers: { 'content-type': 'application/json' }, text: JSON.stringify(json), json } as never;
}

describe('judgeWriteOnlyHidden', () => {
  it('names every place a list answers the writeOnly field under one title, never its value', () => {
    const operation = listing({ type: 'array', items: USER });
    const problem = judgeWriteOnlyHidden(
      operation,
      answer([
        { name: 'a', password: 'hunter22' },
        { name: 'b', password: 'x' },
      ]),
    );
    expect(problem?.title).toBe('writeOnly field answered: body[].password');
    expect(problem?.received).toBe('body[0].password, body[1].password (values not shown)');
    expect(JSON.stringify(problem)).not.toContain('hunter22');
  });

  it('passes an answer without it, and reads `items: false` (OpenAPI 3.1) as marking nothing', () => {
    const operation = listing({ type: 'array', items: USER });
    expect(judgeWriteOnlyHidden(operation, answer([{ name: 'a', tags: [] }]))).toBeUndefined();
    expect(judgeWriteOnlyHidden(listing({ type: 'array', items: false as never }), answer([1]))).toBeUndefined();
  });
});
