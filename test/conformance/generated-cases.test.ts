import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../src/contract/lossless-json.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import type { Mutation, ProxyRequest, ProxyResponse } from '../support/mutating-proxy.js';
import {
  eachPet,
  editJson,
  errorJson,
  isCreatePet,
  isGetPet,
  isListPets,
  isPet,
  type Json,
  pathOf,
  remapIds,
  rerouteGetPet,
} from '../support/pet-mutations.js';
import { blockingCheckIds } from './run-cli.js';
import { useMutatedMock } from './use-mutated-mock.js';

const VALID = `Bearer ${DEV_API_KEY}`;
const authorized = (req: ProxyRequest): ProxyRequest => ({ ...req, headers: { ...req.headers, authorization: VALID } });
const bodyOf = (req: ProxyRequest): Json | undefined => {
  try {
    const body = parseJson(req.body);
    return isPet(body) ? (body as Json) : undefined;
  } catch {
    return undefined;
  }
};
/** A createPet whose body passes `test` gets `answer` instead of reaching the mock. */
const onCreate = (test: (body: Json) => boolean, answer: ProxyResponse): Mutation => ({
  request: (req) => {
    const body = isCreatePet(req) ? bodyOf(req) : undefined;
    return body && test(body) ? answer : req;
  },
});
/** Rewrites the name of every created pet as the broken server stores it. */
const storedName = (change: (name: string) => string): Mutation => ({
  request: (req) => {
    const body = isCreatePet(req) ? bodyOf(req) : undefined;
    return body && typeof body.name === 'string' ? { ...req, body: stringifyJson({ ...body, name: change(body.name) }) } : req;
  },
});
const queryOf = (req: ProxyRequest) => new URL(req.url, 'http://x').searchParams;
const badRequest = errorJson(400);

/**
 * Servers broken in one way the hand-written scenarios were never tuned to; the run is the generated cases alone
 * (an empty scenario folder), so each is caught by what the runner derives from the contract.
 */
// What a server that stores each create twice lists: each marked pet a second time, under another id.
const storedTwice: Mutation = {
  response: (res, req) =>
    isListPets(req) && res.status === 200
      ? editJson(res, (body) =>
          (body as Json[]).flatMap((pet) =>
            String(pet.name).startsWith('conformance once ') ? [pet, { ...pet, id: 9_000_000 }] : [pet],
          ),
        )
      : res,
};

// `args`: more runner options, where only some kinds must run for the case of that kind to be the one that sees it.
const BROKEN: readonly { name: string; check: string; kind: string; mutation: () => Mutation; args?: string[] }[] = [
  {
    name: 'limit=100 refused',
    check: 'status-expected',
    kind: 'parameters',
    mutation: () => ({ request: (req) => (isListPets(req) && queryOf(req).get('limit') === '100' ? badRequest : req) }),
  },
  {
    name: 'limit=1 refused',
    check: 'status-expected',
    kind: 'pagination',
    mutation: () => ({ request: (req) => (isListPets(req) && queryOf(req).get('limit') === '1' ? badRequest : req) }),
  },
  {
    name: 'a crash on an empty name',
    check: 'no-server-error',
    kind: 'valid-bodies',
    mutation: () => onCreate((body) => body.name === '', errorJson(500)),
  },
  {
    name: 'a crash on a field the schema does not define',
    check: 'no-server-error',
    kind: 'valid-bodies',
    mutation: () =>
      onCreate((body) => Object.keys(body).some((k) => !['name', 'categoryId', 'status'].includes(k)), errorJson(500)),
  },
  {
    // Trimming the ends is a choice a correct server may make (independent-choices.test.ts); changing the inside is not.
    name: 'whitespace inside names collapsed',
    check: 'body-expected',
    kind: 'valid-bodies',
    mutation: () => storedName((name) => name.trim().replace(/\s+/g, ' ')),
  },
  {
    name: 'names cut at 255 characters',
    check: 'body-expected',
    kind: 'valid-bodies',
    mutation: () => storedName((name) => name.slice(0, 255)),
  },
  {
    name: 'a quote in a name breaks the JSON answer',
    check: 'body-schema',
    kind: 'valid-bodies',
    mutation: () => ({
      response: (res, req) => (isCreatePet(req) && res.status === 201 ? { ...res, body: res.body.replaceAll('\\"', '"') } : res),
    }),
  },
  {
    name: 'application/json; charset=utf-8 refused',
    check: 'status-expected',
    kind: 'media-types',
    mutation: () => ({
      request: (req) =>
        isCreatePet(req) &&
        req.headers['content-type'] !== 'application/json' &&
        req.headers['content-type']?.startsWith('application/json')
          ? errorJson(415)
          : req,
    }),
  },
  {
    name: 'an enum value in another case accepted',
    check: 'status-expected',
    kind: 'invalid-bodies',
    mutation: () => ({
      request: (req) => {
        const body = isCreatePet(req) ? bodyOf(req) : undefined;
        return body?.status === 'AVAILABLE' ? { ...req, body: stringifyJson({ ...body, status: 'available' }) } : req;
      },
    }),
  },
  {
    name: 'auth that accepts a prefix of the key',
    check: 'auth-enforced',
    kind: 'auth',
    mutation: () => ({
      request: (req) => {
        const token = req.headers.authorization?.replace(/^Bearer /, '');
        return token && token.length > 3 && DEV_API_KEY.startsWith(token) ? authorized(req) : req;
      },
    }),
  },
  {
    name: 'auth that ignores the letter case of the key',
    check: 'auth-enforced',
    kind: 'auth',
    mutation: () => ({
      request: (req) => (req.headers.authorization?.toLowerCase() === VALID.toLowerCase() ? authorized(req) : req),
    }),
  },
  {
    name: 'auth that takes the key after another scheme',
    check: 'auth-enforced',
    kind: 'auth',
    mutation: () => ({ request: (req) => (req.headers.authorization === `Basic ${DEV_API_KEY}` ? authorized(req) : req) }),
  },
  {
    name: 'auth that takes the key followed by junk',
    check: 'auth-enforced',
    kind: 'auth',
    mutation: () => ({ request: (req) => (req.headers.authorization?.startsWith(`${VALID} `) ? authorized(req) : req) }),
  },
  {
    name: 'auth that lets any key through under the scheme spelled bearer',
    check: 'auth-enforced',
    kind: 'auth',
    mutation: () => ({ request: (req) => (req.headers.authorization?.startsWith('bearer ') ? authorized(req) : req) }),
  },
  {
    name: 'auth checked once per kept-alive connection',
    check: 'auth-enforced',
    kind: 'auth',
    mutation: () => {
      const trusted = new Set<number>();
      return {
        request: (req) => {
          if (req.headers.authorization === VALID) trusted.add(req.connection);
          return trusted.has(req.connection) ? authorized(req) : req;
        },
      };
    },
  },
  {
    name: 'lists capped at 50, below limit=100',
    check: 'body-expected',
    kind: 'pagination',
    mutation: () => ({
      response: (res, req) =>
        isListPets(req) && res.status === 200 ? editJson(res, (body) => (body as Json[]).slice(0, 50)) : res,
    }),
  },
  {
    name: 'a list that holds the same pet twice',
    check: 'ids-unique-in-list',
    kind: 'pagination',
    mutation: () => ({
      response: (res, req) =>
        isListPets(req) && res.status === 200
          ? editJson(res, (body) => {
              const list = body as Json[];
              return list.length > 1 ? [...list.slice(0, -1), list[0] as Json] : list;
            })
          : res,
    }),
  },
  {
    name: 'every new pet gets id 42 (as Prism and Mockoon answer)',
    check: 'id-assigned-once',
    kind: 'ids',
    mutation: () => ({
      response: (res, req) =>
        isCreatePet(req) && res.status === 201 ? editJson(res, (body) => ({ ...(body as Json), id: 42 })) : res,
    }),
  },
  {
    name: 'getPet answers another pet',
    check: 'body-expected',
    kind: 'valid-bodies',
    mutation: () => ({ request: (req) => rerouteGetPet(req, (id) => (id > 2n ? id - 1n : undefined)) }),
  },
  {
    name: 'getPet reads an id past 2^31 through a 32-bit integer, and answers another pet',
    check: 'fetched-as-addressed',
    kind: 'parameters',
    mutation: () => ({
      request: (req) => rerouteGetPet(req, (id) => (id > 2n ** 31n ? BigInt.asIntN(32, id) || 1n : undefined)),
    }),
  },
  {
    name: 'a create stored twice (the list shows it under two ids)',
    check: 'stored-once',
    kind: 'ids',
    mutation: () => storedTwice,
  },
  {
    name: 'a create stored twice, seen on a full page',
    check: 'stored-once',
    kind: 'pagination',
    mutation: () => storedTwice,
    args: ['--generate', 'pagination'],
  },
  {
    name: 'a client-sent id becomes the pet id',
    check: 'body-expected',
    kind: 'ids',
    mutation: () => {
      const sent = new Map<string, unknown>();
      return {
        request: (req) => {
          const body = isCreatePet(req) ? bodyOf(req) : undefined;
          if (body?.id !== undefined) sent.set(req.body, body.id);
          return req;
        },
        response: (res, req) =>
          sent.has(req.body) && res.status === 201
            ? editJson(res, (body) => ({ ...(body as Json), id: sent.get(req.body) as never }))
            : res,
      };
    },
  },
  {
    name: 'a body judged before the key: 400 to a request without a key',
    check: 'status-expected',
    kind: 'auth',
    mutation: () => ({
      request: (req) => (isCreatePet(req) && req.headers.authorization === undefined && !bodyOf(req) ? badRequest : req),
    }),
  },
  {
    name: 'JSON followed by more text accepted',
    check: 'status-expected',
    kind: 'invalid-bodies',
    mutation: () => ({
      request: (req) => {
        if (!isCreatePet(req) || !req.body.endsWith(' trailing')) return req;
        return { ...req, body: req.body.slice(0, -' trailing'.length) };
      },
    }),
  },
  {
    name: 'names cut at 255 characters in lists only',
    check: 'listed-as-created',
    kind: 'pagination',
    mutation: () => ({
      response: (res, req) =>
        isListPets(req) && res.status === 200
          ? editJson(res, (body) =>
              eachPet(body, (pet) => {
                pet.name = String(pet.name).slice(0, 255);
              }),
            )
          : res,
    }),
  },
  {
    name: 'a crash on a petId at the int64 maximum',
    check: 'no-server-error',
    kind: 'parameters',
    mutation: () => ({ request: (req) => (pathOf(req) === '/v1/pets/9223372036854775807' ? errorJson(500) : req) }),
  },
];

/** Choices a correct server may make where the contract is silent, one per server. */
const CORRECT: readonly { name: string; mutation: () => Mutation }[] = [
  {
    name: 'negative ids',
    mutation: () =>
      remapIds(
        (n) => -1000n - n,
        (id) => id,
      ),
  },
  {
    name: 'ids that start at 0',
    mutation: () =>
      remapIds(
        (n) => n - 1n,
        (id) => id,
      ),
  },
  {
    name: 'ids above 2^53',
    mutation: () =>
      remapIds(
        (n) => 2n ** 62n + n,
        (id) => id,
      ),
  },
  {
    name: 'no POST /messages',
    mutation: () => ({ request: (req) => (pathOf(req) === '/v1/messages' ? errorJson(404) : req) }),
  },
  {
    name: '415 for a text/plain body',
    mutation: () => ({ request: (req) => (req.headers['content-type'] === 'text/plain' ? errorJson(415) : req) }),
  },
  {
    name: 'Connection: close on every answer',
    mutation: () => ({ response: (res) => ({ ...res, wire: { close: true } }) }),
  },
  {
    name: 'chunked bodies',
    mutation: () => ({ response: (res) => ({ ...res, wire: { chunked: true } }) }),
  },
  {
    name: 'application/json;charset=UTF-8',
    mutation: () => ({
      response: (res) => ({ ...res, headers: { ...res.headers, 'content-type': 'application/json;charset=UTF-8' } }),
    }),
  },
  {
    name: 'extra fields in Pet and in Error',
    mutation: () => ({
      response: (res) =>
        editJson(res, (body) => {
          for (const item of Array.isArray(body) ? body : [body])
            if (item && typeof item === 'object') (item as Json).traceId = 'abc';
          return body;
        }),
    }),
  },
  {
    name: 'a pet created without status gets none',
    mutation: () => {
      const statusless = new Set<string>();
      // A filtered list is asked of the mock at full length and cut to the client's limit here, after the pets
      // this server would not call available are gone.
      const filtered = (req: ProxyRequest) => isListPets(req) && queryOf(req).has('status');
      return {
        request: (req) =>
          filtered(req) ? { ...req, url: `${pathOf(req)}?status=${queryOf(req).get('status')}&limit=100` } : req,
        response: (res, req) => {
          if (isCreatePet(req) && res.status === 201 && bodyOf(req)?.status === undefined) {
            statusless.add(String((parseJson(res.body) as Json).id));
          }
          const limit = Number(queryOf(req).get('limit') ?? 20);
          return editJson(res, (body) => {
            const kept =
              filtered(req) && Array.isArray(body)
                ? body.filter((pet) => !statusless.has(String((pet as Json).id))).slice(0, limit)
                : body;
            return eachPet(kept, (pet) => {
              if (statusless.has(String(pet.id))) delete pet.status;
            });
          });
        },
      };
    },
  },
  {
    name: 'a pet whose status moves on once created',
    mutation: () => ({
      response: (res, req) => {
        if (!isGetPet(req) || res.status !== 200) return res;
        return editJson(res, (body) =>
          eachPet(body, (pet) => {
            if (pet.status !== undefined) pet.status = pet.status === 'sold' ? 'pending' : 'sold';
          }),
        );
      },
    }),
  },
  {
    // The contract sets no minimum: a server may require a positive id (@Positive), recorded (value-variants.ts).
    name: 'categoryId 0 or negative refused with 400',
    mutation: () => onCreate((body) => typeof body.categoryId === 'number' && body.categoryId <= 0, badRequest),
  },
  {
    name: 'newest-first order',
    mutation: () => ({
      response: (res, req) =>
        isListPets(req) ? editJson(res, (body) => (Array.isArray(body) ? [...body].reverse() : body)) : res,
    }),
  },
  {
    name: 'by-name order',
    mutation: () => ({
      response: (res, req) =>
        isListPets(req)
          ? editJson(res, (body) =>
              Array.isArray(body)
                ? [...body].sort((a, b) => String((a as Json).name).localeCompare(String((b as Json).name)))
                : body,
            )
          : res,
    }),
  },
  {
    name: '400 for unknown query parameters',
    mutation: () => ({
      request: (req) => {
        const unknown = [...queryOf(req).keys()].some((k) => k !== 'limit' && k !== 'status');
        return isListPets(req) && unknown ? badRequest : req;
      },
    }),
  },
];

describe('the generated cases against servers broken in one way', async () => {
  const runAgainst = useMutatedMock();
  const noScenarios = await mkdtemp(join(tmpdir(), 'no-scenarios-'));

  it.each(BROKEN)('exits 1 and names $check ($kind) for $name', async ({ check, kind, mutation, args = [] }) => {
    const run = await runAgainst(mutation(), ['--scenarios', noScenarios, '--seed', '7', ...args]);
    expect(run.err).toBe('');
    expect(run.code).toBe(1);
    const report = await run.report();
    expect(blockingCheckIds(report)).toContain(check);
    const kinds = report.scenarios.filter((s) => s.findings.some((f) => f.checkId === check && f.blocking)).map((s) => s.kind);
    expect(kinds).toContain(kind);
  });
});

describe('the whole default run against correct servers that choose differently', () => {
  const runAgainst = useMutatedMock();

  it.each(CORRECT)('passes a server with $name', async ({ mutation }) => {
    const run = await runAgainst(mutation());
    const report = await run.report();
    expect(report.scenarios.flatMap((s) => s.findings.map((f) => `${s.id}: ${f.checkId}: ${f.title}`))).toEqual([]);
    expect(run.code).toBe(0);
  });

  it('records the choices it saw where the contract is silent: extra fields and id numbering', async () => {
    const extra = CORRECT.find((c) => c.name === 'extra fields in Pet and in Error') as (typeof CORRECT)[number];
    const report = await (await runAgainst(extra.mutation())).report();
    const notes = report.scenarios.flatMap((s) => s.observations).map((o) => o.note);
    expect(notes).toContain('createPet 201 answers fields the contract does not list: traceId');
    expect(notes).toContain('getPet 404 answers fields the contract does not list: traceId');
    expect(
      notes.filter((n) =>
        n.startsWith('an id createPet assigned in this run (the first judged, not necessarily the first made): '),
      ),
    ).toHaveLength(1);
  });

  it('records createMessage as not served, and skips its cases, when /messages is a 404', async () => {
    const run = await runAgainst({ request: (req) => (pathOf(req) === '/v1/messages' ? errorJson(404) : req) });
    const report = await run.report();
    const notes = report.scenarios.flatMap((s) => s.observations).map((o) => `${o.note}: ${o.status}`);
    expect(notes).toContain('whether the target serves createMessage: 404');
    const messageCases = report.scenarios.filter((s) => s.id.includes('createMessage') || s.id.startsWith('messages/'));
    expect(messageCases.length).toBeGreaterThan(10);
    expect(
      messageCases.every((s) => s.outcome === 'skipped' && /createMessage is not served \(HTTP 404\)/.test(s.skipReason ?? '')),
    ).toBe(true);
  });
});
