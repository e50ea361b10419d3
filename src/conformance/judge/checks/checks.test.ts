import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/load-contract.js';
import { parseJson } from '../../../contract/lossless-json.js';
import type { Operation } from '../../../contract/operation.js';
import type { Exchange } from '../../http/exchange.js';
import { checksFor } from '../judge-exchange.js';
import { runChecks, unverifiedChecks } from '../run-checks.js';
import type { Step, StepExpectation } from '../../cases/scenario.js';
import { authEnforced } from './auth-enforced.js';
import { bodyExpected } from './body-expected.js';
import { challengeOn401 } from './challenge-on-401.js';
import { BUILT_IN_CHECKS } from './built-in-checks.js';
import { createdLocation } from './created-location.js';
import { dateHeader } from './date-header.js';
import { jsonCharset } from './json-charset.js';
import { type Check, type CheckInput, createRunMemory } from './check.js';

const contract = await loadContract();
const op = (id: string) => contract.byId.get(id) as Operation;

const PET = '{"id":9007199254740993,"name":"Rex","categoryId":1,"status":"sold"}';
const ERROR_401 = '{"code":"invalid_api_key","message":"no","status":401}';

interface Shape {
  operationId?: string;
  operation?: Operation;
  status?: number;
  body?: string;
  contentType?: string | null;
  headers?: Record<string, string>;
  auth?: Step['auth'];
  expect?: StepExpectation;
  elapsedMs?: number;
  error?: Exchange['error'];
  url?: string;
  /** WWW-Authenticate on a 401: a Bearer challenge unless given; null for none. */
  challenge?: string | null;
}

/** An exchange for getPet answering a Pet by default; each case changes one thing. */
// The answer as the HTTP client hands it over when the body began with EF BB BF: the text without it, and the mark.
function withBom(given: CheckInput): CheckInput {
  const response = given.exchange.response as NonNullable<Exchange['response']>;
  return { ...given, exchange: { ...given.exchange, response: { ...response, byteOrderMark: true } } };
}

function input(shape: Shape = {}): CheckInput {
  const operation = shape.operation ?? op(shape.operationId ?? 'getPet');
  const body = shape.body ?? PET;
  const contentType = shape.contentType === undefined ? 'application/json' : shape.contentType;
  const challenge = shape.challenge === undefined ? 'Bearer realm="petstore"' : shape.challenge;
  const headers: Record<string, string> = {
    ...(contentType === null ? {} : { 'content-type': contentType }),
    ...(shape.status === 401 && challenge !== null ? { 'www-authenticate': challenge } : {}),
    ...shape.headers,
  };
  let json: unknown;
  let jsonError: string | undefined;
  try {
    json = body === '' ? undefined : parseJson(body);
  } catch (error) {
    jsonError = (error as Error).message;
  }
  const exchange: Exchange = {
    request: {
      method: operation.method,
      url: shape.url ?? 'http://127.0.0.1:1/v1/pets/9007199254740993',
      headers: {},
      body: undefined,
    },
    response: shape.error ? undefined : { status: shape.status ?? 200, headers, text: body, json: json as never, jsonError },
    error: shape.error,
    elapsedMs: shape.elapsedMs ?? 5,
  };
  return {
    operation,
    exchange,
    credentials: (shape.auth ?? 'default') === 'default' ? 'run-key' : 'refusable',
    expect: shape.expect,
    observing: false,
    caseId: 'test/case',
    settings: { timeoutMs: 1000, maxResponseTimeMs: 100 },
    run: createRunMemory(contract),
  };
}

const withRequiredHeader: Operation = {
  ...op('getPet'),
  responses: op('getPet').responses.map((r) =>
    r.code === '200' ? { ...r, headers: [{ name: 'x-request-id', required: true }] } : r,
  ),
};

// getPet as a contract that promises 304s documents it: an ETag on the 200 and a 304 with the ETag alone.
const ETAG_HEADER = { name: 'etag', required: true };
const withNotModified: Operation = {
  ...op('getPet'),
  responses: [
    ...op('getPet').responses.map((r) => (r.code === '200' ? { ...r, headers: [ETAG_HEADER] } : r)),
    { code: '304', description: 'Not modified.', headers: [ETAG_HEADER], contents: [] },
  ],
};

// listPets with a documented X-Total-Count.
const withTotalCount: Operation = {
  ...op('listPets'),
  responses: op('listPets').responses.map((r) =>
    r.code === '200' ? { ...r, headers: [{ name: 'x-total-count', required: true }] } : r,
  ),
};

// getPet with a Pet that has a writeOnly `password` (the view of a response leaves it out and names it).
const withWriteOnly: Operation = {
  ...op('getPet'),
  responses: op('getPet').responses.map((r) =>
    r.code === '200'
      ? { ...r, contents: r.contents.map((c) => ({ ...c, schema: { ...c.schema, writeOnlyProperties: ['password'] } })) }
      : r,
  ),
};

/** The same exchange as sent with HTTP's own `method` on the operation's path, read raw: `strayBytes` after its head. */
function asMethod(given: CheckInput, method: 'HEAD' | 'OPTIONS', strayBytes = 0): CheckInput {
  const exchange: Exchange = {
    ...given.exchange,
    request: { ...given.exchange.request, method },
    afterHead: { strayBytes, strayStart: '{"id":1}'.repeat(strayBytes).slice(0, strayBytes) },
  };
  return { ...given, exchange };
}

const GET_ANSWER = { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } };

/**
 * Per check: an exchange that conforms, and one crafted to break exactly the property the check enforces.
 * `heldTo`: the exchange is a step's that only some checks judge (judge-exchange.ts checksFor), as HEAD or OPTIONS.
 */
const CASES: Readonly<Record<string, { conforming: CheckInput; violation: CheckInput; heldTo?: 'otherMethod' }>> = {
  'head-options-answered': {
    conforming: asMethod(input({ status: 405, body: '', contentType: null, headers: { allow: 'GET' } }), 'OPTIONS'),
    violation: asMethod(input({ status: 500, body: '' }), 'OPTIONS'),
    heldTo: 'otherMethod',
  },
  'head-like-get': {
    conforming: asMethod(input({ body: '', expect: { asGet: GET_ANSWER } }), 'HEAD'),
    violation: asMethod(input({ body: '', contentType: 'text/html', expect: { asGet: GET_ANSWER } }), 'HEAD'),
    heldTo: 'otherMethod',
  },
  'no-content-after-headers': {
    conforming: asMethod(input({ body: '' }), 'HEAD'),
    violation: asMethod(input({ body: '' }), 'HEAD', 23),
    heldTo: 'otherMethod',
  },
  answered: {
    conforming: input(),
    violation: input({ error: { kind: 'timeout', message: 'no complete answer within 1000 ms' } }),
  },
  'no-server-error': { conforming: input(), violation: input({ status: 503, body: '{"code":"x","message":"y","status":503}' }) },
  'auth-enforced': {
    conforming: input({ auth: 'none', status: 401, body: ERROR_401 }),
    violation: input({ auth: { raw: 'Basic abc' } }),
  },
  'status-documented': { conforming: input(), violation: input({ status: 204, body: '' }) },
  'status-expected': { conforming: input({ expect: { status: ['2XX'] } }), violation: input({ expect: { status: [404, 401] } }) },
  'content-type-json': {
    conforming: input({ contentType: 'application/json; charset=utf-8' }),
    violation: input({ contentType: 'text/plain' }),
  },
  'json-without-bom': { conforming: input(), violation: withBom(input()) },
  'body-schema': { conforming: input(), violation: input({ body: '{"id":"1","name":"Rex"}' }) },
  'write-only-hidden': {
    conforming: input({ operation: withWriteOnly }),
    violation: input({ operation: withWriteOnly, body: '{"id":1,"name":"Rex","categoryId":1,"password":"hunter22"}' }),
  },
  'error-status-matches': {
    conforming: input({ status: 401, body: ERROR_401 }),
    violation: input({ status: 404, body: '{"code":"x","message":"y","status":400}' }),
  },
  'headers-documented': {
    conforming: input({ operation: withRequiredHeader, headers: { 'x-request-id': 'a' } }),
    violation: input({ operation: withRequiredHeader }),
  },
  'body-expected': {
    // Exact int64 comparison: 2^53+1 matches itself and not 2^53, which a double could not tell apart.
    conforming: input({ expect: { body: { id: 9007199254740993n, status: 'sold' } } }),
    violation: input({ expect: { body: { id: 9007199254740992 } } }),
  },
  'headers-expected': {
    conforming: input({ expect: { headers: { 'content-type': 'application/json' } } }),
    violation: input({ expect: { headers: { location: true } } }),
  },
  'response-time': { conforming: input({ elapsedMs: 99 }), violation: input({ elapsedMs: 101 }) },
  'ids-unique-in-list': {
    conforming: input({ operationId: 'listPets', body: `[${PET},${PET.replace('9007199254740993', '9007199254740992')}]` }),
    // 2^53+1 twice: told apart from 2^53 only because ids are compared exactly.
    violation: input({ operationId: 'listPets', body: `[${PET},${PET}]` }),
  },
  'listed-as-created': {
    conforming: input({ operationId: 'listPets', body: `[${PET}]` }),
    violation: createdAs(input({ operationId: 'listPets', body: `[${PET}]` }), {
      id: 9007199254740993n,
      name: 'Rex (as created)',
    }),
  },
  'json-utf8': {
    conforming: input({ body: PET.replace('Rex', 'Rex é') }),
    violation: {
      ...input(),
      exchange: {
        ...input().exchange,
        response: { ...(input().exchange.response as NonNullable<Exchange['response']>), invalidUtf8: true },
      },
    },
  },
  'list-within-query': {
    conforming: input({
      operationId: 'listPets',
      url: 'http://127.0.0.1:1/v1/pets?status=sold&limit=2',
      body: `[${PET},${PET.replace('9007199254740993', '9007199254740992')}]`,
    }),
    violation: input({ operationId: 'listPets', url: 'http://127.0.0.1:1/v1/pets?status=available', body: `[${PET}]` }),
  },
  'refused-not-stored': {
    conforming: input({ operationId: 'listPets', body: `[${PET.replace('"Rex"', '"conformance refused 0123456789"')}]` }),
    violation: refusedBefore(
      input({ operationId: 'listPets', body: `[${PET.replace('"Rex"', '"conformance refused 0123456789"')}]` }),
    ),
  },
  'fetched-as-addressed': {
    conforming: input({ operationId: 'getPet', url: 'http://127.0.0.1:1/v1/pets/9007199254740993?x=1' }),
    // 2^53+1 read as a double, or through a 32-bit integer: another pet.
    violation: input({ operationId: 'getPet', url: 'http://127.0.0.1:1/v1/pets/9007199254740992' }),
  },
  'stored-once': {
    conforming: input({
      operationId: 'listPets',
      body: `[${PET.replace('"Rex"', '"conformance once 1a2b3c4d k3v9x0q2mz"')},${PET.replace('9007199254740993', '2')}]`,
    }),
    violation: input({
      operationId: 'listPets',
      body: `[${PET.replace('"Rex"', '"conformance once 1a2b3c4d k3v9x0q2mz"')},${PET.replace('9007199254740993', '2').replace('"Rex"', '"conformance once 1a2b3c4d k3v9x0q2mz"')}]`,
    }),
  },
  'created-location': {
    conforming: input({
      operationId: 'createPet',
      status: 201,
      url: 'http://127.0.0.1:1/v1/pets',
      headers: { location: '/v1/pets/9007199254740993' },
    }),
    // 2^53, not the 2^53+1 the body gives: the Location of another pet.
    violation: input({
      operationId: 'createPet',
      status: 201,
      url: 'http://127.0.0.1:1/v1/pets',
      headers: { location: '/v1/pets/9007199254740992' },
    }),
  },
  'json-charset': {
    conforming: input({ contentType: 'application/json; charset="UTF-8"' }),
    violation: input({ contentType: 'application/json; charset=latin1' }),
  },
  'date-header': {
    conforming: input({ headers: { date: 'Fri, 27 Nov 2026 12:00:00 GMT' } }),
    violation: input({ headers: { date: '2026-11-27T12:00:00Z' } }),
  },
  'challenge-on-401': {
    conforming: input({ auth: 'none', status: 401, body: ERROR_401, challenge: 'Basic realm="x", bearer realm="petstore"' }),
    violation: input({ auth: 'none', status: 401, body: ERROR_401, challenge: null }),
  },
  'allow-on-405': {
    // As the probe sees it: whether an optional operation is served is observed (x-optional-operation).
    conforming: {
      ...input({ operationId: 'createMessage', status: 405, body: '', contentType: null, headers: { allow: 'GET' } }),
      observing: true,
    },
    violation: { ...input({ operationId: 'createMessage', status: 405, body: '', contentType: null }), observing: true },
  },
  'id-assigned-once': {
    conforming: input({ operationId: 'createPet', status: 201 }),
    violation: alreadyAssigned(input({ operationId: 'createPet', status: 201 })),
  },
  // The effect checks: a read after the case's own write, with what the write must have done.
  'not-modified': {
    conforming: input({
      operation: withNotModified,
      status: 304,
      body: '',
      contentType: null,
      headers: { etag: '"a"' },
      expect: { conditional: { check: 'not-modified', documented: true } },
    }),
    violation: input({
      operation: withNotModified,
      headers: { etag: '"a"' },
      expect: { conditional: { check: 'not-modified', documented: true } },
    }),
  },
  'etag-changes': {
    conforming: input({
      operation: withNotModified,
      headers: { etag: '"b"' },
      expect: { conditional: { check: 'etag-changes', was: '"a"', writeStatus: 200 } },
    }),
    violation: input({
      operation: withNotModified,
      headers: { etag: '"a"' },
      expect: { conditional: { check: 'etag-changes', was: '"a"', writeStatus: 200 } },
    }),
  },
  'precondition-enforced': {
    conforming: input({ expect: { conditional: { check: 'precondition-enforced', sent: 'current' } } }),
    // A stale If-Match, and the write applied anyway.
    violation: input({ expect: { conditional: { check: 'precondition-enforced', sent: 'stale' } } }),
  },
  'total-count': {
    conforming: input({
      operation: withTotalCount,
      body: `[${PET}]`,
      headers: { 'x-total-count': '1' },
      expect: { totalCount: 1 },
    }),
    violation: input({
      operation: withTotalCount,
      body: `[${PET}]`,
      headers: { 'x-total-count': '3' },
      expect: { totalCount: 1 },
    }),
  },
  'created-readable': {
    conforming: input({ operationId: 'listPets', body: `[${PET}]`, expect: { effect: listed('created-readable', true) } }),
    violation: input({ operationId: 'listPets', body: '[]', expect: { effect: listed('created-readable', true) } }),
  },
  'update-took-effect': {
    conforming: input({
      expect: { effect: { check: 'update-took-effect', status: ['2XX'], body: { name: 'Rex', id: 9007199254740993n } } },
    }),
    violation: input({
      expect: { effect: { check: 'update-took-effect', status: ['2XX'], body: { name: 'Max', id: 9007199254740993n } } },
    }),
  },
  'deleted-is-gone': {
    conforming: input({ operationId: 'listPets', body: '[]', expect: { effect: listed('deleted-is-gone', false) } }),
    violation: input({ operationId: 'listPets', body: `[${PET}]`, expect: { effect: listed('deleted-is-gone', false) } }),
  },
  'delete-repeatable': {
    conforming: input({
      status: 404,
      body: '{"code":"not_found","message":"no","status":404}',
      expect: { effect: { check: 'delete-repeatable', statusNot: ['5XX'] } },
    }),
    violation: input({ expect: { effect: { check: 'delete-repeatable', statusNot: ['2XX'] } } }),
  },
  'refusal-leaves-no-trace': {
    conforming: input({ expect: { effect: { check: 'refusal-leaves-no-trace', status: ['2XX'], body: { name: 'Rex' } } } }),
    violation: input({ expect: { effect: { check: 'refusal-leaves-no-trace', status: ['2XX'], body: { name: '12345' } } } }),
  },
  'parent-scoped': {
    conforming: input({
      status: 404,
      body: '{"code":"not_found","message":"no","status":404}',
      expect: { effect: { check: 'parent-scoped', status: [404] } },
    }),
    violation: input({ expect: { effect: { check: 'parent-scoped', status: [404] } } }),
  },
  'page-advances': {
    conforming: input({ operationId: 'listPets', body: `[${PET}]`, expect: { effect: nextPage([{ id: 1n }]) } }),
    violation: input({ operationId: 'listPets', body: `[${PET}]`, expect: { effect: nextPage([{ id: 9007199254740993n }]) } }),
  },
  'cursor-walk': {
    conforming: input({ operationId: 'listPets', body: `[${PET}]`, expect: { effect: walkPage(['1']) } }),
    violation: input({ operationId: 'listPets', body: `[${PET}]`, expect: { effect: walkPage(['9007199254740993']) } }),
  },
  'patch-null-removes': {
    conforming: input({ expect: { effect: absent('patch-null-removes', 'tag', []) } }),
    violation: input({ expect: { effect: absent('patch-null-removes', 'status', []) } }),
  },
  'put-replaces': {
    // A server may fill a default of its own for the field the PUT left out: only the value written before is a merge.
    conforming: input({ expect: { effect: absent('put-replaces', 'status', [], 'pending') } }),
    violation: input({ expect: { effect: absent('put-replaces', 'status', ['available']) } }),
  },
  'others-untouched': {
    // The other record as it was made; judged only after a write answered 2xx.
    conforming: input({
      expect: {
        effect: { check: 'others-untouched', status: ['2XX'], body: { name: 'Rex' }, onlyAfter: { status: 204, in: ['2XX'] } },
      },
    }),
    violation: input({
      expect: {
        effect: { check: 'others-untouched', status: ['2XX'], body: { name: 'Max' }, onlyAfter: { status: 200, in: ['2XX'] } },
      },
    }),
  },
};

function nextPage(previous: readonly object[]): NonNullable<StepExpectation['effect']> {
  return { check: 'page-advances', status: ['2XX'], nextPage: { field: 'id', pointer: [], previous, size: 1, rest: 1 } };
}

function walkPage(
  earlier: readonly string[],
  page: { number?: number; last?: boolean; capped?: boolean } = {},
  walk: { ownCollection?: boolean; promisesAll?: boolean } = {},
): NonNullable<StepExpectation['effect']> {
  const { ownCollection = true, promisesAll = false } = walk;
  return {
    check: 'cursor-walk',
    walkPage: {
      field: 'id',
      pointer: [],
      atLeast: 3,
      ownCollection,
      promisesAll,
      page: {
        number: page.number ?? 2,
        earlier: new Set(earlier),
        first: earlier,
        last: page.last ?? false,
        capped: page.capped ?? false,
      },
    },
  };
}

function absent(
  check: 'patch-null-removes' | 'put-replaces',
  field: string,
  allowed: readonly unknown[],
  was: unknown = 'sold',
): NonNullable<StepExpectation['effect']> {
  return { check, status: ['2XX'], absent: { field, was, allowed, writeStatus: 200 } };
}

function listed(check: 'created-readable' | 'deleted-is-gone', present: boolean): NonNullable<StepExpectation['effect']> {
  return { check, listed: { field: 'id', value: 9007199254740993n, present, pointer: [], pageSize: 100 } };
}

/** The same exchange, in a run where createPet answered `fields` for a pet earlier. */
function createdAs(checked: CheckInput, fields: Record<string, unknown>): CheckInput {
  checked.run.createdFields.set('createPet', new Map([[String(fields.id), fields]]));
  return checked;
}

/** The same exchange, in a run where an earlier create whose body held this mark was refused. */
function refusedBefore(checked: CheckInput): CheckInput {
  checked.run.refusedMarks.add('conformance refused 0123456789');
  return checked;
}

/** The same exchange, in a run where an earlier create already received its id. */
function alreadyAssigned(checked: CheckInput): CheckInput {
  // Counted per collection URL: another parent's record may hold the same id.
  const collection = new URL(checked.exchange.request.url).pathname.replace(/\/+$/, '');
  checked.run.assignedIds.set(`createPet ${collection} 9007199254740993`, 'earlier/case');
  return checked;
}

describe('every built-in check', () => {
  it('has a case here, a kebab-case id, a severity and a clause', () => {
    expect(BUILT_IN_CHECKS.map((c) => c.id).sort()).toEqual(Object.keys(CASES).sort());
    for (const check of BUILT_IN_CHECKS) {
      expect(check.id).toMatch(/^[a-z]+(-[a-z0-9]+)*$/);
      expect(check.clause.length).toBeGreaterThan(10);
    }
  });

  describe.each(BUILT_IN_CHECKS.map((c) => [c.id, c] as const))('%s', (id, check) => {
    const { conforming, violation, heldTo } = CASES[id] as (typeof CASES)[string];
    const judging = checksFor({ setup: false, otherMethod: heldTo === 'otherMethod' }, BUILT_IN_CHECKS);

    it('finds nothing in a conforming exchange, from any check that judges it', () => {
      expect(runChecks(judging, conforming)).toEqual([]);
    });

    it('finds exactly one problem in the crafted violation, saying what was received and documented', () => {
      const problem = check.check(violation);
      expect(problem?.received).toBeTruthy();
      expect(problem?.documented).toBeTruthy();
      expect(runChecks([check], violation)).toHaveLength(1);
    });
  });
});

describe('head-like-get on Content-Length', () => {
  const head = (length: string, sameContent?: true) =>
    runChecks(
      checksFor({ setup: false, otherMethod: true }, BUILT_IN_CHECKS),
      asMethod(
        input({
          body: '',
          headers: { 'content-length': length },
          expect: { asGet: { ...GET_ANSWER, headers: { ...GET_ANSWER.headers, 'content-length': '42' }, sameContent } },
        }),
        'HEAD',
      ),
    ).map((p) => p.check.id);

  it("fails a HEAD whose Content-Length is not the GET's, where nothing changed the record in between", () => {
    expect(head('43', true)).toEqual(['head-like-get']);
    expect(head('42', true)).toEqual([]);
  });

  it('takes any Content-Length where a list may have changed between the GET and the HEAD', () => {
    expect(head('43')).toEqual([]);
  });
});

describe('fetched-as-addressed on a path value that is no integer', () => {
  const fetched = (segment: string) =>
    runChecks(BUILT_IN_CHECKS, input({ operationId: 'getPet', url: `http://127.0.0.1:1/v1/pets/${segment}` })).map(
      (p) => p.check.id,
    );

  it('fails the pet that a parseInt reading of 9007199254740993.5 or 9007199254740993abc answers', () => {
    expect(fetched('9007199254740993.5')).toEqual(['fetched-as-addressed']);
    expect(fetched('9007199254740993abc')).toEqual(['fetched-as-addressed']);
  });

  it('takes another spelling of the same integer', () => {
    expect(fetched('9007199254740993.0')).toEqual([]);
  });
});

describe('runChecks', () => {
  it('turns a check that throws into a finding and runs the others', () => {
    const throwing: Check = {
      id: 'boom',
      severity: 'low',
      clause: 'none',
      observed: 'applies',
      check: () => {
        throw new Error('bad');
      },
    };
    const problems = runChecks([throwing, ...BUILT_IN_CHECKS], input({ status: 500, body: '' }));
    expect(problems.map((p) => p.check.id)).toEqual(['check-error', 'no-server-error', 'status-documented']);
    expect(problems[0]?.title).toBe('check boom threw: bad');
  });

  it('does not hold an observed step to the documented statuses', () => {
    const observed = input({ operationId: 'listPets', status: 400, body: '{"code":"x","message":"y","status":400}' });
    expect(runChecks(BUILT_IN_CHECKS, observed).map((p) => p.check.id)).toEqual(['status-documented']);
    expect(runChecks(BUILT_IN_CHECKS, { ...observed, observing: true })).toEqual([]);
  });
});

describe('resource effects on a refused write', () => {
  it("judge no error body as the record a write answers: a 428 for a missing If-Match is the step's status finding alone", () => {
    const problem = '{"title":"precondition required","status":428}';
    const written = { check: 'update-took-effect' as const, body: { name: 'Max' } };
    const refused = input({ status: 428, body: problem, expect: { status: [200], effect: written } });
    expect(runChecks(BUILT_IN_CHECKS, refused).map((p) => p.check.id)).not.toContain('update-took-effect');
    const answered = input({ expect: { status: [200], effect: written } });
    expect(runChecks(BUILT_IN_CHECKS, answered).map((p) => p.check.id)).toContain('update-took-effect');
  });
});

describe('observed answers', () => {
  it('holds an undocumented status to nothing that needs a documented response: a problem+json 400 on listPets', () => {
    const problem = input({
      operationId: 'listPets',
      status: 400,
      contentType: 'application/problem+json',
      body: '{"type":"about:blank","title":"bad limit","status":400}',
    });
    expect(runChecks(BUILT_IN_CHECKS, { ...problem, observing: true })).toEqual([]);
  });

  it('still fails a server error on an observed request', () => {
    const crashed = input({ operationId: 'listPets', status: 500, body: '' });
    expect(runChecks(BUILT_IN_CHECKS, { ...crashed, observing: true }).map((p) => p.check.id)).toEqual(['no-server-error']);
  });
});

describe('auth-enforced', () => {
  it('judges only whether a request without valid credentials was served: a 307 or 403 is not a security finding', () => {
    for (const status of [307, 403, 404]) {
      expect(authEnforced.check(input({ auth: 'none', status, body: '' }))).toBeUndefined();
    }
    expect(authEnforced.check(input({ auth: 'none', status: 204, body: '' }))?.title).toBe(
      'a request without an Authorization header was served',
    );
  });

  it('names the place an apiKey scheme puts the key', () => {
    const key = { scheme: 'apiKey', schemeName: 'k', in: 'query', name: 'api_key' } as const;
    const served = input({ operation: { ...op('getPet'), key }, auth: 'none', status: 200 });
    const sent = { ...served.exchange.request, credential: { placement: key, shown: '<key>x', runKey: false } };
    expect(authEnforced.check({ ...served, exchange: { ...served.exchange, request: sent } })?.title).toBe(
      'a request with ?api_key=<key>x was served',
    );
  });
});

describe('challenge-on-401', () => {
  const refused = (key: Operation['key'], challenge: string | null) =>
    challengeOn401.check(input({ operation: { ...op('getPet'), key }, auth: 'none', status: 401, body: ERROR_401, challenge }));

  // RFC 9110 §15.5.2 asks a challenge of HTTP authentication schemes; an apiKey scheme is none.
  it('asks no challenge of an apiKey operation, and a Basic one of a basic operation', () => {
    expect(refused({ scheme: 'apiKey', schemeName: 'k', in: 'header', name: 'X-API-Key' }, null)).toBeUndefined();
    expect(refused({ scheme: 'basic', schemeName: 'b' }, 'Basic realm="x"')).toBeUndefined();
    expect(refused({ scheme: 'basic', schemeName: 'b' }, 'Bearer realm="x"')?.title).toBe(
      'a 401 whose WWW-Authenticate has no Basic challenge: Bearer realm="x"',
    );
  });
});

describe('body-expected: bodyNot', () => {
  it('fails a created pet that took the id the client sent, and passes one with its own id', () => {
    const sent = { id: 9007199254740993n };
    expect(bodyExpected.check(input({ operationId: 'createPet', status: 201, expect: { bodyNot: sent } }))?.received).toBe(
      'body.id: received the value the request sent, 9007199254740993',
    );
    expect(bodyExpected.check(input({ operationId: 'createPet', status: 201, expect: { bodyNot: { id: 5 } } }))).toBeUndefined();
  });

  it('fails one that took the id through a double: 7000000000123456789 sent, 7000000000123456512 answered', () => {
    const lossy = PET.replace('9007199254740993', '7000000000123456512');
    const sent = { id: 7000000000123456789n };
    expect(
      bodyExpected.check(input({ operationId: 'createPet', status: 201, body: lossy, expect: { bodyNot: sent } }))?.received,
    ).toBe('body.id: received the value the request sent, 7000000000123456789');
    const near = PET.replace('9007199254740993', '7000000000123457024');
    expect(
      bodyExpected.check(input({ operationId: 'createPet', status: 201, body: near, expect: { bodyNot: sent } })),
    ).toBeUndefined();
  });
});

describe('body-expected: bodyIncludes', () => {
  const OTHER = '{"id":7,"name":"Other","categoryId":1,"status":"sold"}';
  const list = (...pets: string[]) => `[${pets.join(',')}]`;
  const includes = (body: string, item: unknown, whenShorterThan?: number) =>
    bodyExpected.check(input({ operationId: 'listPets', body, expect: { bodyIncludes: { item, whenShorterThan } } }));

  it('finds the item in a page shorter than the limit, comparing int64 ids exactly', () => {
    expect(includes(list(OTHER, PET), { id: 9007199254740993n, status: 'sold' }, 3)).toBeUndefined();
    // 2^53 and 2^53+1 are the same double: only an exact comparison sees that 2^53 is not in the list.
    const problem = includes(list(OTHER, PET), { id: 9007199254740992n }, 3);
    expect(problem?.received).toBe('body: none of the 2 items contains {"id":9007199254740992}');
    expect(problem?.documented).toBe('an item contains {"id":9007199254740992} (a list of fewer than 3 is the whole list)');
  });

  it('says nothing about a full page, which may leave the item for a later one', () => {
    expect(includes(list(OTHER, OTHER), { id: 9007199254740993n }, 2)).toBeUndefined();
    expect(includes(list(OTHER, OTHER), { id: 9007199254740993n }, 3)).toBeDefined();
  });

  it('always applies without whenShorterThan, and refuses a body that is not an array', () => {
    expect(includes(list(OTHER), { name: 'Rex' })?.title).toMatch(/none of the 1 items contains/);
    expect(includes(PET, { name: 'Rex' }, 100)?.title).toMatch(/expected an array/);
  });

  it('reads a list that wraps its records at listAt ({ items, next })', () => {
    const page = (...pets: string[]) => `{"items":${list(...pets)},"next":null}`;
    const judged = (body: string, expect: StepExpectation) =>
      bodyExpected.check(input({ operationId: 'listPets', body, expect: { listAt: ['items'], ...expect } }));
    expect(judged(page(OTHER, PET), { bodyLength: { equals: 2 }, bodyIncludes: { item: { name: 'Other' } } })).toBeUndefined();
    expect(judged(page(OTHER), { bodyLength: { equals: 2 } })?.received).toBe('body.items: 1 items, expected 2');
    expect(judged(list(OTHER), { bodyLength: { equals: 1 } })?.received).toMatch(/^body\.items: expected an array/);
  });
});

describe('list-within-query', () => {
  const listOf = (count: number, query: string) =>
    input({ operationId: 'listPets', url: `http://127.0.0.1:1/v1/pets${query}`, body: `[${Array(count).fill(PET).join(',')}]` });
  const title = (given: CheckInput) => runChecks(BUILT_IN_CHECKS, given).find((p) => p.check.id === 'list-within-query')?.title;

  it('holds a list without limit to the default of 20, and one with a valid limit to it', () => {
    expect(title(listOf(20, ''))).toBeUndefined();
    expect(title(listOf(21, ''))).toBe('the list holds 21 items for no limit (default 20)');
    expect(title(listOf(21, '?status=sold'))).toBe('the list holds 21 items for no limit (default 20)');
    expect(title(listOf(3, '?limit=2'))).toBe('the list holds 3 items for limit=2');
    expect(title(listOf(100, '?limit=100'))).toBeUndefined();
  });

  it('judges nothing the contract leaves open: a limit out of range, not a number or repeated, an unknown status', () => {
    for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?limit=1&limit=2', '?limit=-1'])
      expect(title(listOf(30, query))).toBeUndefined();
    expect(title(listOf(1, '?status=SOLD'))).toBeUndefined();
    expect(title(listOf(1, '?status=available&status=sold'))).toBeUndefined();
  });

  it('names an item without the filtered field too', () => {
    const unfiltered = input({
      operationId: 'listPets',
      url: 'http://127.0.0.1:1/v1/pets?status=sold',
      body: '[{"id":1,"name":"a","categoryId":1}]',
    });
    expect(title(unfiltered)).toBe('the list filtered by status=sold holds an item whose status is (nothing)');
  });
});

describe('list-within-query: integer filters', async () => {
  const evolved = await loadContract('test/contracts/evolved-petstore/openapi.yaml');
  const ORDER = (petId: string) => `{"id":1,"petId":${petId},"quantity":1,"status":"placed"}`;
  const orders = (query: string, ...petIds: string[]) => ({
    ...input({
      operation: evolved.byId.get('listOrders') as Operation,
      url: `http://127.0.0.1:1/v1/store/orders${query}`,
      body: `[${petIds.map(ORDER).join(',')}]`,
    }),
    run: createRunMemory(evolved),
  });
  const title = (given: CheckInput) => runChecks(BUILT_IN_CHECKS, given).find((p) => p.check.id === 'list-within-query')?.title;

  it('holds a list filtered by an integer field to that value, compared digit for digit', () => {
    expect(title(orders('?petId=9007199254740993', '9007199254740993'))).toBeUndefined();
    expect(title(orders('?petId=9007199254740993', '9007199254740993', '9007199254740992'))).toBe(
      'the list filtered by petId=9007199254740993 holds an item whose petId is 9007199254740992',
    );
    expect(title(orders('?petId=-07', '-7'))).toBeUndefined();
  });

  it('judges no value the parameter does not allow: not an integer, outside int64, repeated', () => {
    for (const query of ['?petId=abc', '?petId=1.5', '?petId=9223372036854775808', '?petId=1&petId=2'])
      expect(title(orders(query, '3'))).toBeUndefined();
  });
});

describe('created-location', () => {
  const created = (location: string | undefined, operationId = 'createPet') =>
    input({
      operationId,
      status: 201,
      url: 'http://127.0.0.1:1/v1/pets',
      headers: location === undefined ? {} : { location },
    });
  const title = (given: CheckInput) => createdLocation.check(given)?.title;

  it('passes a Location naming the created pet: relative, absolute, on a gateway host, with a trailing slash', () => {
    for (const location of [
      '/v1/pets/9007199254740993',
      'pets/9007199254740993',
      'http://127.0.0.1:1/v1/pets/9007199254740993',
      'https://api.example.test/gateway/v1/pets/9007199254740993',
      '/v1/pets/9007199254740993/',
      undefined,
    ])
      expect(title(created(location))).toBeUndefined();
  });

  it('fails one naming another id or another collection', () => {
    for (const location of ['/v1/pets/1', '/v1/pet/9007199254740993', '/pets/9007199254740993', '9007199254740993'])
      expect(title(created(location))).toBe(`the 201's Location names another resource: ${location}`);
  });

  it('fails the path of a created id that is a dot segment, which names the collection or its parent', () => {
    for (const id of ['.', '..']) {
      const given = input({
        operationId: 'createPet',
        status: 201,
        url: 'http://127.0.0.1:1/v1/pets',
        headers: { location: `/v1/pets/${id}` },
        body: JSON.stringify({ id, name: 'Rex' }),
      });
      expect(title(given)).toBe(`the 201's Location names another resource: /v1/pets/${id}`);
    }
  });

  it('judges only creates whose resources the contract addresses by id', () => {
    expect(title({ ...created('/elsewhere/1', 'createMessage'), operation: op('createMessage') })).toBeUndefined();
  });
});

describe('json-charset and date-header', () => {
  it('passes UTF-8 under any spelling, and US-ASCII for a body that is all ASCII', () => {
    for (const type of ['application/json; charset=utf8', 'application/json;charset=UTF-8', 'application/json; charset=us-ascii'])
      expect(jsonCharset.check(input({ contentType: type }))).toBeUndefined();
    expect(
      jsonCharset.check(input({ contentType: 'application/json; charset=us-ascii', body: PET.replace('Rex', 'Rexé') }))?.title,
    ).toBe('JSON sent as charset=us-ascii');
    expect(jsonCharset.check(input({ contentType: 'text/plain; charset=latin1' }))).toBeUndefined();
  });

  it('says nothing of a missing Date (a server without a clock sends none), and fails an obsolete form', () => {
    expect(dateHeader.check(input())).toBeUndefined();
    expect(dateHeader.check(input({ headers: { date: 'Friday, 27-Nov-26 12:00:00 GMT' } }))?.title).toBe(
      'Date is not an HTTP-date: Friday, 27-Nov-26 12:00:00 GMT',
    );
  });
});

describe('checks that could not observe what they check say "not verified"', () => {
  const listUrl = (limit: number) => `http://127.0.0.1:1/v1/pets?limit=${limit}`;
  const page = (n: number) =>
    `[${Array.from({ length: n }, (_, i) => PET.replace('9007199254740993', String(i + 1))).join(',')}]`;
  /** A create of this case, with `name` in its body, answered `status`; then its list, in the same run memory. */
  const afterCreate = (name: string, status: number, list: CheckInput): CheckInput => {
    const create = input({
      operationId: 'createPet',
      status,
      body: status === 201 ? PET : ERROR_401.replaceAll('401', String(status)),
    });
    const sent = {
      ...create,
      exchange: { ...create.exchange, request: { ...create.exchange.request, body: `{"name":"${name}","categoryId":1}` } },
    };
    runChecks(BUILT_IN_CHECKS, sent);
    return { ...list, run: sent.run };
  };
  const unverified = (given: CheckInput) => unverifiedChecks(BUILT_IN_CHECKS, given, runChecks(BUILT_IN_CHECKS, given));

  it('a refused create, then a full page without it: refused-not-stored is not verified; a shorter page verifies it', () => {
    const full = afterCreate(
      'conformance refused 0123456789',
      400,
      input({ operationId: 'listPets', url: listUrl(2), body: page(2) }),
    );
    expect(unverified(full)).toEqual([
      expect.stringMatching(/^not verified \(refused-not-stored\): the list answered a full page of 2/),
    ]);
    const short = afterCreate(
      'conformance refused 0123456789',
      400,
      input({ operationId: 'listPets', url: listUrl(3), body: page(2) }),
    );
    expect(unverified(short)).toEqual([]);
  });

  it('a marked create, then a full page without it: stored-once is not verified; with it, verified', () => {
    const mark = 'conformance once 1a2b3c4d k3v9x0q2mz';
    const full = afterCreate(mark, 201, input({ operationId: 'listPets', url: listUrl(2), body: page(2) }));
    expect(unverified(full)).toEqual([
      expect.stringMatching(/^not verified \(stored-once\): the list answered a full page of 2/),
    ]);
    const holding = afterCreate(
      mark,
      201,
      input({ operationId: 'listPets', url: listUrl(2), body: page(2).replace('"Rex"', `"${mark}"`) }),
    );
    expect(unverified(holding)).toEqual([]);
  });

  it('an item expected in a list: a full page without it is not verified, never passed', () => {
    const rule = { bodyIncludes: { item: { name: 'Absent' }, whenShorterThan: 2 } };
    expect(unverified(input({ operationId: 'listPets', url: listUrl(2), body: page(2), expect: rule }))).toEqual([
      expect.stringMatching(/^not verified \(body-expected\): the list answered a full page of 2 without an item containing/),
    ]);
    expect(unverified(input({ operationId: 'listPets', url: listUrl(2), body: page(1), expect: rule })).length).toBe(0);
  });

  it('a field a refused write was to take away is not verified, never failed: a contract whose schema refuses null', () => {
    const refused = input({
      expect: {
        effect: { check: 'patch-null-removes', absent: { field: 'status', was: 'sold', allowed: [], writeStatus: 400 } },
      },
    });
    expect(runChecks(BUILT_IN_CHECKS, refused)).toEqual([]);
    expect(unverified(refused)).toEqual([
      expect.stringMatching(/^not verified \(patch-null-removes\): the write that was to take status away was refused \(400\)/),
    ]);
  });

  it('a second page that repeats part of the first, or skips records that follow it, fails page-advances', () => {
    const repeat = [{ id: 9007199254740993n }, { id: 5n }];
    const effect = (rest: number) => ({
      check: 'page-advances' as const,
      nextPage: { field: 'id', pointer: [], previous: repeat, size: 2, rest },
    });
    const titles = (body: string, rest: number) =>
      runChecks(BUILT_IN_CHECKS, input({ operationId: 'listPets', body, expect: { effect: effect(rest) } })).map((p) => p.title);
    expect(titles(`[${PET}]`, 1)).toEqual([
      expect.stringMatching(/^page-advances: the second page repeats the first page's id 9007199254740993$/),
    ]);
    // An offset that skips one: 2 records follow the first page, 1 is answered.
    expect(titles('[{"id":7,"name":"a","categoryId":1}]', 2)).toEqual([
      'page-advances: the second page holds 1 of the 2 records that follow a full first page: some were skipped',
    ]);
    expect(titles('[{"id":7,"name":"a","categoryId":1}]', 1)).toEqual([]);
    expect(titles('[]', 0)).toEqual([]);
  });

  it('a cursor walk fails a repeat, a walk that does not end and, where all are promised, missing records', () => {
    const titles = (effect: NonNullable<StepExpectation['effect']>) =>
      runChecks(BUILT_IN_CHECKS, input({ operationId: 'listPets', body: `[${PET}]`, expect: { effect } })).map((p) => p.title);
    const notes = (effect: NonNullable<StepExpectation['effect']>) =>
      unverified(input({ operationId: 'listPets', body: `[${PET}]`, expect: { effect } }));
    expect(titles(walkPage(['9007199254740993', '4']))).toEqual([
      'cursor-walk: page 2 answered records of an earlier page again (id 9007199254740993): its cursor was not followed',
    ]);
    expect(titles(walkPage(['1'], { capped: true }))).toEqual([
      expect.stringMatching(/^cursor-walk: the walk did not end: page 2 still carried a next cursor/),
    ]);
    expect(titles(walkPage(['1'], { last: true }, { promisesAll: true }))).toEqual([
      'cursor-walk: the walk ended at page 2 having listed 2 records, fewer than the 3 the case created',
    ]);
    // The contract is silent on listing every record, or other cases share the collection: noted, never failed.
    expect(titles(walkPage(['1'], { last: true }))).toEqual([]);
    expect(notes(walkPage(['1'], { last: true }))).toEqual([
      expect.stringMatching(/fewer than the 3 the case created; the contract does not say/),
    ]);
    expect(titles(walkPage(['1'], { capped: true }, { ownCollection: false }))).toEqual([]);
    expect(notes(walkPage(['1'], { capped: true }, { ownCollection: false }))).toEqual([
      expect.stringMatching(/the walk was cut at page 2 with a next cursor still given: whether it ends is not verified/),
    ]);
    expect(titles(walkPage(['1', '2'], { last: true }, { promisesAll: true }))).toEqual([]);
    // A shared collection: the first page answered again by page 2 may be two creates at its top; by page 3 it fails.
    const shared = { ownCollection: false };
    expect(titles(walkPage(['9007199254740993'], {}, shared))).toEqual([]);
    expect(notes(walkPage(['9007199254740993'], {}, shared))).toEqual([expect.stringMatching(/may have shifted them/)]);
    expect(titles(walkPage(['9007199254740993'], { number: 3 }, shared))).toEqual([
      expect.stringMatching(/^cursor-walk: page 3 answered records of an earlier page again/),
    ]);
  });

  it('a conforming exchange of every check is verified', () => {
    for (const { conforming } of Object.values(CASES)) expect(unverified(conforming)).toEqual([]);
  });
});

describe('the header promises: 304, a changed ETag, the count', () => {
  const problem = (check: Check, given: CheckInput) => check.check(given)?.title;

  it('not-modified: a 304 without its ETag fails; a 200 passes only where no 304 is documented', () => {
    const notModified = BUILT_IN_CHECKS.find((c) => c.id === 'not-modified') as Check;
    const bare = { operation: withNotModified, status: 304, body: '', contentType: null };
    expect(
      problem(notModified, input({ ...bare, expect: { conditional: { check: 'not-modified', documented: true } } })),
    ).toMatch(/no ETag/);
    expect(
      problem(notModified, input({ expect: { conditional: { check: 'not-modified', documented: false } } })),
    ).toBeUndefined();
  });

  it('etag-changes: judged only after a write answered 2xx, and a 304 for the old tag fails', () => {
    const etagChanges = BUILT_IN_CHECKS.find((c) => c.id === 'etag-changes') as Check;
    const same = { headers: { etag: '"a"' } };
    const afterWrite = (writeStatus: unknown) => ({ conditional: { check: 'etag-changes', was: '"a"', writeStatus } }) as const;
    expect(problem(etagChanges, input({ ...same, expect: afterWrite(400) }))).toBeUndefined();
    expect(problem(etagChanges, input({ ...same, expect: afterWrite(204) }))).toMatch(/stayed/);
    expect(problem(etagChanges, input({ status: 304, body: '', expect: afterWrite(200) }))).toMatch(/304/);
  });

  it('precondition-enforced: a 412 to a weak current tag is right (If-Match compares strongly), and said not verified', () => {
    const enforced = BUILT_IN_CHECKS.find((c) => c.id === 'precondition-enforced') as Check;
    const current = input({ status: 412, expect: { conditional: { check: 'precondition-enforced', sent: 'current' } } });
    const weak = {
      ...current,
      exchange: { ...current.exchange, request: { ...current.exchange.request, headers: { 'if-match': 'W/"a"' } } },
    };
    expect(problem(enforced, current)).toMatch(/current tag/);
    expect(problem(enforced, weak)).toBeUndefined();
    expect(enforced.unverified?.(weak)).toMatch(/weak/);
  });

  it('precondition-enforced: where only the If-Match parameter is documented, a documented refusal other than 412 keeps it', () => {
    const enforced = BUILT_IN_CHECKS.find((c) => c.id === 'precondition-enforced') as Check;
    const refusal = (code: string) => ({ code, description: 'Refused.', headers: [], contents: [] });
    const with409: Operation = { ...op('createPet'), responses: [...op('createPet').responses, refusal('409')] };
    const with409and412: Operation = { ...with409, responses: [...with409.responses, refusal('412')] };
    const stale = (operation: Operation, status: number) =>
      input({ operation, status, expect: { conditional: { check: 'precondition-enforced', sent: 'stale' } } });
    expect(problem(enforced, stale(with409, 409))).toBeUndefined();
    expect(problem(enforced, stale(with409, 418))).toMatch(/answered 418/);
    expect(problem(enforced, stale(with409, 201))).toMatch(/answered 201/);
    // Where the contract names the 412, that is the refusal it promises.
    expect(problem(enforced, stale(with409and412, 409))).toMatch(/answered 409/);
  });

  it('total-count: not a whole number, or fewer than the page, fails without an expected count', () => {
    const totalCount = BUILT_IN_CHECKS.find((c) => c.id === 'total-count') as Check;
    const listed = (count: string) =>
      input({ operation: withTotalCount, body: `[${PET},${PET}]`, headers: { 'x-total-count': count } });
    expect(problem(totalCount, listed('2'))).toBeUndefined();
    expect(problem(totalCount, listed('900'))).toBeUndefined();
    expect(problem(totalCount, listed('1'))).toMatch(/fewer than the 2/);
    expect(problem(totalCount, listed('two'))).toMatch(/not a whole number/);
    // A list that documents no count header promises nothing by one it sends.
    expect(
      problem(totalCount, input({ operationId: 'listPets', body: `[${PET}]`, headers: { 'x-total-count': '0' } })),
    ).toBeUndefined();
  });
});
