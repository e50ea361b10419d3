import { describe, expect, it } from 'vitest';
import { compileSchema } from '../compile-schema.js';
import { directedSchema, effectiveSchema } from '../effective-schema.js';
import type { MediaSpec } from '../operation.js';
import { shapeErrorBody } from './shape-error-body.js';

function media(schema: object, mediaType = 'application/json'): MediaSpec {
  return {
    mediaType,
    schema: effectiveSchema(schema, 'response'),
    example: undefined,
    validate: compileSchema(directedSchema(schema, 'response') as object, 'body'),
  };
}

/** The body a shape writes for a 400 validation_failed, parsed, and whether the schema takes it. */
function answer(schema: object, status = 400, message = 'body.name: is required') {
  const spec = media(schema);
  const shape = shapeErrorBody(spec, status);
  if (!shape) return undefined;
  const text = shape.body('validation_failed', message);
  const value = JSON.parse(text) as Record<string, unknown>;
  expect(spec.validate?.(value)).toEqual([]);
  return { text, value };
}

const text = { type: 'string' };

describe('shapeErrorBody', () => {
  it('writes the shipped Error body exactly as the mock always has: code, message, status', () => {
    const error = {
      type: 'object',
      required: ['code', 'message', 'status'],
      properties: { code: { ...text, example: 'invalid_api_key' }, message: text, status: { type: 'integer', example: 401 } },
    };
    expect(answer(error, 404, 'no pet has that id')?.text).toBe(
      '{"code":"validation_failed","message":"no pet has that id","status":404}',
    );
  });

  it('fills an RFC 9457 Problem: type is the code, title the reason phrase beside a detail, detail the message', () => {
    const problem = {
      type: 'object',
      required: ['type', 'title', 'status', 'detail'],
      properties: {
        type: { ...text, format: 'uri-reference' },
        title: text,
        status: { type: 'integer' },
        detail: text,
        instance: text,
      },
    };
    expect(answer(problem)?.value).toEqual({
      type: 'validation_failed',
      title: 'Bad Request',
      status: 400,
      detail: 'body.name: is required',
    });
  });

  it('says about:blank for a type that must be an absolute URI, and the code in a member of its own', () => {
    const problem = { type: 'object', required: ['type'], properties: { type: { ...text, format: 'uri' }, title: text } };
    expect(answer(problem)?.value).toEqual({ type: 'about:blank', title: 'body.name: is required', code: 'validation_failed' });
  });

  it('adds no member the schema refuses', () => {
    const closed = { type: 'object', required: ['status', 'title'], properties: { status: { type: 'integer' }, title: text } };
    expect(answer({ ...closed, additionalProperties: false })?.value).toEqual({ status: 400, title: 'body.name: is required' });
    expect(answer(closed)?.value).toEqual({ status: 400, title: 'body.name: is required', code: 'validation_failed' });
  });

  it('fills a nested error object and an extra required field from its own schema', () => {
    const envelope = {
      type: 'object',
      additionalProperties: false,
      required: ['error', 'requestId'],
      properties: {
        error: {
          type: 'object',
          required: ['code', 'message'],
          properties: { code: text, message: text, target: text },
        },
        requestId: { ...text, format: 'uuid', example: '9b2a7c1e-3f4d-4e5a-8b6c-7d8e9f0a1b2c' },
      },
    };
    expect(answer(envelope)?.value).toEqual({
      error: { code: 'validation_failed', message: 'body.name: is required' },
      requestId: '9b2a7c1e-3f4d-4e5a-8b6c-7d8e9f0a1b2c',
    });
  });

  it('holds the error once in a required list of errors', () => {
    const list = {
      type: 'object',
      required: ['errors'],
      properties: { errors: { type: 'array', items: { type: 'object', properties: { code: text, detail: text } } } },
    };
    expect(answer(list)?.value).toEqual({ errors: [{ code: 'validation_failed', detail: 'body.name: is required' }] });
  });

  it('reads a numeric code as the status, and cuts a message to its maxLength', () => {
    const numeric = {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer' }, message: { ...text, maxLength: 9 } },
      additionalProperties: false,
    };
    expect(answer(numeric, 404)?.value).toEqual({ code: 404, message: 'body.name' });
  });

  it("gives a field whose schema the error cannot fill (an enum of other codes) the contract's first value", () => {
    const listed = {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { ...text, enum: ['BAD_INPUT', 'MISSING'] }, message: text },
      additionalProperties: false,
    };
    expect(answer(listed)?.value).toEqual({ code: 'BAD_INPUT', message: 'body.name: is required' });
  });

  it('takes the branch of a oneOf that says the most of the error', () => {
    const either = {
      oneOf: [
        {
          type: 'object',
          required: ['fault'],
          properties: { fault: { type: 'boolean', enum: [false] } },
          additionalProperties: false,
        },
        { type: 'object', required: ['message'], properties: { message: text }, additionalProperties: false },
      ],
    };
    expect(answer(either)?.value).toEqual({ message: 'body.name: is required' });
  });

  it('names no shape for a schema no body can meet, nor for a body without a schema', () => {
    const impossible = {
      type: 'object',
      required: ['code', 'ref'],
      properties: { code: text, ref: { ...text, minLength: 5, maxLength: 2 } },
    };
    expect(answer(impossible)).toBeUndefined();
    expect(
      shapeErrorBody({ mediaType: 'application/json', schema: undefined, example: undefined, validate: undefined }, 400),
    ).toBe(undefined);
  });

  it('keeps the media type it documents', () => {
    const problem = { type: 'object', properties: { title: text, status: { type: 'integer' } } };
    expect(shapeErrorBody(media(problem, 'application/problem+json'), 409)?.mediaType).toBe('application/problem+json');
  });
});
