import { describe, expect, it } from 'vitest';
import { compileSchema } from '../compile-schema.js';
import { effectiveSchema } from '../effective-schema.js';
import { loadContract } from '../load-contract.js';
import type { MediaSpec, Operation, ResponseSpec } from '../operation.js';
import { errorBodiesOf } from './error-bodies.js';
import { commonErrorMedia, documentedErrorMedia } from './error-media.js';

function media(properties: Record<string, object>, mediaType = 'application/json'): MediaSpec {
  const schema = { type: 'object', required: Object.keys(properties), properties };
  return { mediaType, schema: effectiveSchema(schema, 'response'), example: undefined, validate: compileSchema(schema, 'body') };
}

const response = (code: string, ...contents: MediaSpec[]): ResponseSpec => ({
  code,
  description: undefined,
  headers: [],
  contents,
});
const operation = (...responses: ResponseSpec[]) => ({ responses }) as unknown as Operation;

const problem = () => media({ title: { type: 'string' }, status: { type: 'integer' } }, 'application/problem+json');
const envelope = () => media({ error: { type: 'object', properties: { message: { type: 'string' } } } });

describe('the error body of an operation and status', () => {
  it('is the exact code, else its range, else default, as OpenAPI reads responses', () => {
    const [exact, range, fallback] = [problem(), envelope(), problem()];
    const op = operation(response('default', fallback), response('4XX', range), response('404', exact));
    expect(documentedErrorMedia(op, 404)).toBe(exact);
    expect(documentedErrorMedia(op, 409)).toBe(range);
    expect(documentedErrorMedia(op, 503)).toBe(fallback);
  });

  it("skips a response's media types that are not JSON or have no schema", () => {
    const text: MediaSpec = { mediaType: 'text/plain', schema: { type: 'string' }, example: undefined, validate: () => [] };
    const bare: MediaSpec = { mediaType: 'application/json', schema: undefined, example: undefined, validate: undefined };
    const json = envelope();
    expect(documentedErrorMedia(operation(response('400', text, bare, json)), 400)).toBe(json);
    expect(documentedErrorMedia(operation(response('400', text, bare)), 400)).toBeUndefined();
  });

  it("is the contract's most common error body where the operation documents none for the status", () => {
    const first = envelope();
    const operations = [
      operation(response('200', media({ id: { type: 'string' } })), response('404', first)),
      operation(response('400', problem()), response('401', problem())),
      operation(response('default', problem()), response('404', envelope())),
    ];
    expect(commonErrorMedia(operations)?.mediaType).toBe('application/problem+json');
    // A tie goes to the body met first.
    expect(commonErrorMedia([operation(response('404', first)), operation(response('400', problem()))])).toBe(first);
    expect(commonErrorMedia([operation(response('200', envelope()))])).toBeUndefined();

    const bodies = errorBodiesOf({ operations } as never, [400]);
    const [withoutBody] = operations;
    expect(JSON.parse(bodies.shapeFor(withoutBody as Operation, 409)?.body('store_full', 'full') ?? '')).toEqual({
      title: 'full',
      status: 409,
      code: 'store_full',
    });
    expect(bodies.common(404)?.mediaType).toBe('application/problem+json');
  });

  it("writes the shipped contract's errors byte for byte as the mock's own Error body", async () => {
    const contract = await loadContract();
    const bodies = errorBodiesOf(contract, [400, 401, 404, 406, 409, 500]);
    for (const op of contract.operations) {
      for (const status of [400, 401, 404, 406, 409, 413, 500, 503]) {
        expect(bodies.shapeFor(op, status)?.body('some_code', 'what "went" wrong')).toBe(
          `{"code":"some_code","message":"what \\"went\\" wrong","status":${status}}`,
        );
      }
    }
  });
});
