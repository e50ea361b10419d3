import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/contract/lossless-json.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import type { Mutation, ProxyResponse } from '../support/mutating-proxy.js';
import {
  delay,
  eachPet,
  editJson,
  errorJson,
  isCreatePet,
  isGetPet,
  isListPets,
  type Json,
  pathOf,
  withoutHeader,
  withoutQuery,
  withQuery,
} from '../support/pet-mutations.js';
import { namedCheckIds } from './run-cli.js';
import { useMutatedMock } from './use-mutated-mock.js';

const onJson = (res: ProxyResponse, edit: (body: Json) => void) =>
  editJson(res, (body) => {
    edit(body as Json);
    return body;
  });

const listed = (edit: (pets: Json[]) => Json[]) => (res: ProxyResponse, req: Parameters<NonNullable<Mutation['response']>>[1]) =>
  isListPets(req) && res.status === 200 ? editJson(res, (body) => edit(body as Json[])) : res;

const createdId = (res: ProxyResponse) => String((parseJson(res.body) as Json).id);

interface Broken {
  readonly name: string;
  /** The check that must name it: among the run's blocking findings, or their consequences. */
  readonly check: string;
  readonly mutation: () => Mutation;
  /** The cases that meet the fault, to keep the run short; every case when none. */
  readonly args?: string[];
  /** Another contract than openapi.yaml, served by the mock and checked. */
  readonly contract?: string;
}

const EVOLVED = 'test/contracts/evolved-petstore/openapi.yaml';

/**
 * The mock behind a mutating proxy, each broken in one way the contract or HTTP forbids and broken-servers.test.ts
 * does not cover. Some were missed before created-location, json-charset, date-header (--fail-on low), integer
 * filters in list-within-query, the answer of a PUT judged by update-took-effect, and answers whose framing broke
 * after the status line no longer sent again.
 */
const BROKEN: readonly Broken[] = [
  {
    name: 'createPet answers 201 without the status it was sent',
    check: 'body-expected',
    mutation: () => ({
      response: (res, req) => (isCreatePet(req) && res.status === 201 ? onJson(res, (pet) => delete pet.status) : res),
    }),
  },
  {
    name: 'a Location on 201 that names another pet',
    check: 'created-location',
    mutation: () => ({
      response: (res, req) =>
        isCreatePet(req) && res.status === 201
          ? { ...res, headers: { ...res.headers, location: `/v1/pets/${BigInt(createdId(res)) + 1n}` } }
          : res,
    }),
  },
  {
    name: 'a Location on 201 with a wrong path',
    check: 'created-location',
    mutation: () => ({
      response: (res, req) =>
        isCreatePet(req) && res.status === 201
          ? { ...res, headers: { ...res.headers, location: `/v1/pet/${createdId(res)}` } }
          : res,
    }),
  },
  {
    name: 'JSON labelled charset=latin1',
    check: 'json-charset',
    mutation: () => ({
      response: (res) =>
        res.headers['content-type']?.startsWith('application/json')
          ? { ...res, headers: { ...res.headers, 'content-type': 'application/json; charset=latin1' } }
          : res,
    }),
  },
  {
    name: 'application/json on a body that is not JSON (getPet answers the name as text)',
    check: 'body-schema',
    mutation: () => ({
      response: (res, req) =>
        isGetPet(req) && res.status === 200 ? { ...res, body: String((parseJson(res.body) as Json).name) } : res,
    }),
  },
  {
    name: 'JSON with trailing garbage after every list',
    check: 'body-schema',
    mutation: () => ({
      response: (res, req) => (isListPets(req) && res.status === 200 ? { ...res, body: `${res.body}]` } : res),
    }),
  },
  {
    name: 'numbers as strings in list items (categoryId)',
    check: 'body-schema',
    mutation: () => ({
      response: listed(
        (pets) =>
          eachPet(pets, (pet) => {
            pet.categoryId = String(pet.categoryId);
          }) as Json[],
      ),
    }),
  },
  {
    name: 'null for a field that is not nullable (status)',
    check: 'body-schema',
    mutation: () => ({
      response: (res) =>
        editJson(res, (body) =>
          eachPet(body, (pet) => {
            if (pet.status !== undefined) pet.status = null;
          }),
        ),
    }),
  },
  {
    name: 'a status outside the enum in lists',
    check: 'body-schema',
    mutation: () => ({
      response: listed(
        (pets) =>
          eachPet(pets, (pet) => {
            pet.status = 'adopted';
          }) as Json[],
      ),
    }),
  },
  {
    name: 'listPets answers items of another resource (messages)',
    check: 'body-schema',
    mutation: () => ({
      response: listed((pets) =>
        pets.map((pet) => ({ id: String(pet.id), message: 'hi', status: 'queued', createdAt: '2026-01-01T00:00:00Z' })),
      ),
    }),
  },
  {
    name: 'limit off by one: limit+1 items',
    check: 'list-within-query',
    mutation: () => ({
      request: (req) => {
        const limit = Number(/[?&]limit=(\d+)/.exec(req.url)?.[1]);
        return isListPets(req) && limit >= 1 && limit < 100
          ? { ...req, url: withQuery(req.url, 'limit', String(limit + 1)) }
          : req;
      },
    }),
  },
  {
    name: 'limit off by one: limit-1 items',
    check: 'body-expected',
    mutation: () => ({
      request: (req) => {
        const limit = Number(/[?&]limit=(\d+)/.exec(req.url)?.[1] ?? 20);
        return isListPets(req) && limit >= 2 && limit <= 100
          ? { ...req, url: withQuery(req.url, 'limit', String(limit - 1)) }
          : req;
      },
    }),
  },
  {
    name: 'a created pet is listed only 3 s after its create answered',
    check: 'body-expected',
    mutation: () => {
      const createdAt = new Map<string, number>();
      return {
        response: (res, req) => {
          if (isCreatePet(req) && res.status === 201) createdAt.set(createdId(res), Date.now());
          return listed((pets) => pets.filter((pet) => Date.now() - (createdAt.get(String(pet.id)) ?? 0) > 3000))(res, req);
        },
      };
    },
  },
  {
    name: 'getPet refuses the valid key with 401',
    check: 'status-expected',
    mutation: () => ({
      request: (req) =>
        isGetPet(req) && req.headers.authorization === `Bearer ${DEV_API_KEY}`
          ? { ...errorJson(401), headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer' } }
          : req,
    }),
  },
  {
    name: 'a key that differs from the key in its last character only is accepted (its form is checked, not its value)',
    check: 'auth-enforced',
    mutation: () => ({
      request: (req) =>
        req.headers.authorization?.slice(0, -1) === `Bearer ${DEV_API_KEY}`.slice(0, -1)
          ? { ...req, headers: { ...req.headers, authorization: `Bearer ${DEV_API_KEY}` } }
          : req,
    }),
    args: ['--case', 'auth/listPets/*'],
  },
  {
    name: 'createAuthor takes an empty name, below its minLength 1, as a name of its own (library contract)',
    check: 'status-expected',
    contract: 'test/contracts/library-api/openapi.yaml',
    mutation: () => ({
      request: (req) =>
        req.method === 'POST' && pathOf(req).endsWith('/authors') && req.body.includes('"name":""')
          ? { ...req, body: req.body.replace('"name":""', '"name":"unnamed"') }
          : req,
    }),
    args: ['--case', 'invalid-bodies/createAuthor/*'],
  },
  {
    name: 'the Basic scheme with the key is accepted as if it were Bearer',
    check: 'auth-enforced',
    mutation: () => ({
      request: (req) =>
        req.headers.authorization?.toLowerCase().startsWith('basic ')
          ? { ...req, headers: { ...req.headers, authorization: `Bearer ${DEV_API_KEY}` } }
          : req,
    }),
  },
  {
    name: '200 with an Error body for an unknown pet',
    check: 'status-expected',
    mutation: () => ({ response: (res, req) => (isGetPet(req) && res.status === 404 ? { ...res, status: 200 } : res) }),
  },
  {
    name: "an Error's status that differs from the HTTP status on 404s only",
    check: 'error-status-matches',
    mutation: () => ({
      response: (res) =>
        res.status === 404
          ? onJson(res, (error) => {
              error.status = 400;
            })
          : res,
    }),
  },
  {
    name: 'a Date header that is not an HTTP-date',
    check: 'date-header',
    args: ['--fail-on', 'low'],
    mutation: () => ({ response: (res) => ({ ...res, headers: { ...res.headers, date: new Date().toISOString() } }) }),
  },
  {
    name: 'a body cut short: Content-Length larger than what is sent',
    check: 'answered',
    mutation: () => ({ response: (res, req) => (isGetPet(req) ? { ...res, wire: { broken: 'truncated' } } : res) }),
  },
  {
    name: 'a chunked body with a chunk size that is not hexadecimal',
    check: 'answered',
    mutation: () => ({ response: (res, req) => (isListPets(req) ? { ...res, wire: { broken: 'bad-chunk' } } : res) }),
  },
  {
    name: 'Content-Encoding: gzip on a body that is not gzip',
    check: 'answered',
    mutation: () => ({
      response: (res, req) => (isGetPet(req) ? { ...res, headers: { ...res.headers, 'content-encoding': 'gzip' } } : res),
    }),
  },
  {
    name: 'a new message answered with status sent, not queued',
    check: 'body-expected',
    mutation: () => ({
      response: (res, req) =>
        req.method === 'POST' && pathOf(req) === '/v1/messages' && res.status < 300
          ? onJson(res, (m) => {
              m.status = 'sent';
            })
          : res,
    }),
  },
  {
    name: 'a 401 whose only challenge is Basic',
    check: 'challenge-on-401',
    mutation: () => ({
      response: (res) =>
        res.status === 401 ? { ...res, headers: { ...res.headers, 'www-authenticate': 'Basic realm="pets"' } } : res,
    }),
  },
  {
    name: 'getPet answers the next pet',
    check: 'fetched-as-addressed',
    mutation: () => ({
      request: (req) => {
        const id = /^\/v1\/pets\/(\d+)$/.exec(pathOf(req))?.[1];
        return isGetPet(req) && id !== undefined && id.length < 10 ? { ...req, url: `/v1/pets/${Number(id) + 1}` } : req;
      },
    }),
  },
  {
    name: 'getPet reads its path value by the leading digits (parseInt): /pets/1.5 answers pet 1',
    check: 'fetched-as-addressed',
    mutation: () => ({
      request: (req) => {
        const digits = /^\/v1\/pets\/(\d+)\D/.exec(pathOf(req))?.[1];
        return isGetPet(req) && digits !== undefined ? { ...req, url: `/v1/pets/${digits}` } : req;
      },
    }),
    args: ['--case', 'parameters/getPet/*'],
  },
  {
    name: 'a read changes the pet: each getPet after the first answers its name with a view mark appended',
    check: 'body-expected',
    mutation: () => {
      const seen = new Set<string>();
      return {
        response: (res, req) => {
          if (!isGetPet(req) || res.status !== 200) return res;
          const again = seen.has(pathOf(req));
          seen.add(pathOf(req));
          return again ? onJson(res, (pet) => Object.assign(pet, { name: `${String(pet.name)} (viewed)` })) : res;
        },
      };
    },
    args: ['--case', 'valid-bodies/createPet/*'],
  },
  {
    name: 'a GET that sends Accept: */* refused with 406 (only application/json, or no Accept, is served)',
    check: 'status-expected',
    mutation: () => ({
      request: (req) => (req.method === 'GET' && req.headers.accept === '*/*' ? errorJson(406) : req),
    }),
    args: ['--case', 'media-types/*'],
  },
  {
    name: 'lists repeat their first pet at the end',
    check: 'ids-unique-in-list',
    mutation: () => ({ response: listed((pets) => (pets.length > 1 ? [...pets, pets[0] as Json] : pets)) }),
  },
  {
    name: 'every request after the first on a kept-alive connection is refused with 401',
    check: 'status-expected',
    mutation: () => {
      const seen = new Set<number>();
      return {
        request: (req) => {
          const again = seen.has(req.connection);
          seen.add(req.connection);
          return again
            ? { ...errorJson(401), headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer' } }
            : req;
        },
      };
    },
  },
  {
    name: 'createPet ignores the status sent: every pet is available',
    check: 'body-expected',
    mutation: () => ({
      request: (req) =>
        isCreatePet(req) ? { ...req, body: req.body.replace(/"status":"(pending|sold)"/, '"status":"available"') } : req,
    }),
  },
  {
    name: 'non-ASCII names stored through Latin-1',
    check: 'body-expected',
    mutation: () => ({
      request: (req) => (isCreatePet(req) ? { ...req, body: Buffer.from(req.body, 'utf8').toString('latin1') } : req),
    }),
  },
  {
    name: 'categoryId kept as a 32-bit integer',
    check: 'body-expected',
    mutation: () => ({
      response: (res, req) =>
        res.status < 300 && (isCreatePet(req) || isGetPet(req) || isListPets(req))
          ? editJson(res, (body) =>
              eachPet(body, (pet) => {
                pet.categoryId = BigInt.asIntN(32, BigInt(pet.categoryId as number));
              }),
            )
          : res,
    }),
  },
  {
    name: 'a 401 without Content-Type',
    check: 'content-type-json',
    mutation: () => ({ response: (res) => (res.status === 401 ? withoutHeader(res, 'content-type') : res) }),
  },
  {
    name: 'a 400 whose Error lacks code',
    check: 'body-schema',
    mutation: () => ({ response: (res) => (res.status === 400 ? onJson(res, (error) => delete error.code) : res) }),
  },
  {
    name: 'createPet answers 201 with no body',
    check: 'body-schema',
    mutation: () => ({ response: (res, req) => (isCreatePet(req) && res.status === 201 ? { ...res, body: '' } : res) }),
  },
  {
    name: 'getPet answers 400 for an unknown id',
    check: 'status-expected',
    mutation: () => ({
      response: (res, req) => (isGetPet(req) && res.status === 404 ? { ...errorJson(400) } : res),
    }),
  },
  {
    name: 'a missing key refused with 403, not 401',
    check: 'status-expected',
    mutation: () => ({
      response: (res) => (res.status === 401 ? editJson({ ...res, status: 403 }, (e) => ({ ...(e as Json), status: 403 })) : res),
    }),
  },
  {
    name: 'listPets pages before it filters: a status filter answers only the matches among the first page',
    check: 'body-expected',
    mutation: () => ({
      request: (req) => (isListPets(req) ? (withoutQuery('status')?.(req) as typeof req) : req),
      response: (res, req) => {
        const status = new URL(req.url, 'http://x').searchParams.get('status');
        return isListPets(req) && status !== null && res.status === 200
          ? editJson(res, (pets) => (pets as Json[]).filter((pet) => pet.status === status))
          : res;
      },
    }),
  },
  {
    name: 'getPet is slow only for pets created in this run',
    check: 'answered',
    args: ['--timeout', '400'],
    mutation: () => {
      const created = new Set<string>();
      return {
        response: async (res, req) => {
          if (isCreatePet(req) && res.status === 201) created.add(`/v1/pets/${createdId(res)}`);
          if (isGetPet(req) && created.has(pathOf(req))) await delay(900);
          return res;
        },
      };
    },
  },
];

const isOrders = (req: { method: string; url: string }) => req.method === 'GET' && req.url.split('?')[0] === '/v1/store/orders';

/** Servers of the evolved contract (PUT, PATCH, DELETE, orders): the mock serving it, behind the proxy. */
const EVOLVED_BROKEN: readonly Broken[] = [
  {
    name: 'getPet answers from a cache its writes do not clear: the pet as first read, after an update or a delete',
    check: 'update-took-effect',
    args: ['--case', 'effects/*'],
    mutation: () => {
      const cache = new Map<string, string>();
      return {
        response: (res, req) => {
          if (!isGetPet(req) || res.status !== 200) return res;
          const kept = cache.get(pathOf(req));
          if (kept !== undefined) return { ...res, body: kept };
          cache.set(pathOf(req), res.body);
          return res;
        },
      };
    },
  },
  {
    name: 'listOrders drops its petId filter when a status filter is given too',
    check: 'list-within-query',
    args: ['--case', 'pagination/listOrders/*'],
    mutation: () => ({
      request: (req) => {
        const url = new URL(req.url, 'http://x');
        if (!isOrders(req) || !url.searchParams.has('status')) return req;
        url.searchParams.delete('petId');
        return { ...req, url: `${url.pathname}${url.search}` };
      },
    }),
  },
  {
    name: 'patchPet takes a merge patch whose status is outside its enum, and leaves status as it was',
    check: 'status-expected',
    args: ['--case', 'invalid-bodies/patchPet/*'],
    mutation: () => ({
      request: (req) => {
        const patch = req.method === 'PATCH' && req.body.startsWith('{') ? (JSON.parse(req.body) as Json) : undefined;
        if (patch === undefined || ['available', 'pending', 'sold', undefined].includes(patch.status as string)) return req;
        const { status: _, ...rest } = patch;
        return { ...req, body: JSON.stringify(Object.keys(rest).length > 0 ? rest : { name: 'kept' }) };
      },
    }),
  },
  {
    name: 'listOrders ignores its status filter',
    check: 'list-within-query',
    args: ['--case', 'pagination/listOrders/*'],
    mutation: () => ({ request: (req) => (isOrders(req) ? (withoutQuery('status')?.(req) as typeof req) : req) }),
  },
  {
    name: 'listOrders ignores its petId filter',
    check: 'list-within-query',
    // Orders made first (one at a time, in order), so that a filter left out shows orders of other pets.
    args: ['--case', 'valid-bodies/createOrder/*,parameters/listOrders/*', '--concurrency', '1'],
    mutation: () => ({ request: (req) => (isOrders(req) ? (withoutQuery('petId')?.(req) as typeof req) : req) }),
  },
  {
    name: 'listOrders answers limit+1 orders',
    check: 'list-within-query',
    args: ['--case', 'pagination/listOrders/*'],
    mutation: () => ({
      request: (req) => {
        const limit = Number(/[?&]limit=(\d+)/.exec(req.url)?.[1] ?? 20);
        return isOrders(req) && limit < 100 ? { ...req, url: withQuery(req.url, 'limit', String(limit + 1)) } : req;
      },
    }),
  },
  {
    name: 'deletePet answers 204 with the removed pet as its body, counted in Content-Length',
    check: 'answered',
    args: ['--case', 'effects/deletePet/*'],
    mutation: () => ({
      response: (res, req) =>
        req.method === 'DELETE' && res.status === 204
          ? {
              ...res,
              headers: { ...res.headers, 'content-type': 'application/json' },
              body: '{"id":1}',
              wire: { broken: 'no-content-body' },
            }
          : res,
    }),
  },
  {
    name: 'updatePet answers the pet as it was before',
    check: 'update-took-effect',
    args: ['--case', 'effects/updatePet/*'],
    mutation: () => {
      const before = new Map<string, string>();
      return {
        response: (res, req) => {
          if (isCreatePet(req) && res.status === 201) before.set(`/v1/pets/${createdId(res)}`, res.body);
          const old = before.get(pathOf(req));
          return req.method === 'PUT' && res.status === 200 && old !== undefined ? { ...res, body: old } : res;
        },
      };
    },
  },
  {
    name: 'updatePet of an unknown pet creates it (201)',
    check: 'status-documented',
    args: ['--case', 'parameters/updatePet/*'],
    mutation: () => ({
      response: (res, req) =>
        req.method === 'PUT' && res.status === 404 ? { ...res, status: 201, body: '{"id":5,"name":"x","categoryId":1}' } : res,
    }),
  },
  {
    name: 'patchPet refuses application/merge-patch+json with 415',
    check: 'status-expected',
    args: ['--case', 'effects/patchPet/*'],
    mutation: () => ({
      request: (req) =>
        req.method === 'PATCH' && req.headers['content-type']?.startsWith('application/merge-patch+json') ? errorJson(415) : req,
    }),
  },
  {
    name: 'getOrder answers placedAt as a local date',
    check: 'body-schema',
    args: ['--case', 'effects/createOrder/*'],
    mutation: () => ({
      response: (res, req) =>
        req.method === 'GET' && /^\/v1\/store\/orders\/\d+$/.test(pathOf(req)) && res.status === 200
          ? onJson(res, (order) => {
              order.placedAt = '27/11/2026 12:00';
            })
          : res,
    }),
  },
  {
    name: 'createOrder ignores the status sent',
    check: 'body-expected',
    args: ['--case', 'valid-bodies/createOrder/*'],
    mutation: () => ({
      request: (req) =>
        req.method === 'POST' && pathOf(req) === '/v1/store/orders'
          ? { ...req, body: req.body.replace(/"status":"(approved|delivered)"/, '"status":"placed"') }
          : req,
    }),
  },
];

describe('the runner against servers broken in one more way each', () => {
  const runAgainst = useMutatedMock();

  it.each(BROKEN)('exits 1 and names $check for $name', async ({ check, mutation, args, contract }) => {
    const run = await runAgainst(mutation(), args, contract);
    expect(namedCheckIds(await run.report()), run.out.slice(-600)).toContain(check);
    expect(run.code).toBe(1);
  });

  it('passes a correct server that writes an absolute Location, JSON as charset=UTF-8 and no Date, even with --fail-on low', async () => {
    let located = 0;
    const run = await runAgainst(
      {
        response: (res, req) => {
          const { headers } = withoutHeader(res, 'date');
          if (headers['content-type'] === 'application/json') headers['content-type'] = 'application/json; charset=UTF-8';
          if (isCreatePet(req) && res.status === 201) {
            headers.location = `https://api.example.test/v1/pets/${createdId(res)}`;
            located++;
          }
          return { ...res, headers };
        },
      },
      ['--fail-on', 'low', '--max-response-time', '60000'],
    );
    const report = await run.report();
    expect(report.scenarios.flatMap((s) => s.findings)).toEqual([]);
    expect(run.code).toBe(0);
    expect(located).toBeGreaterThan(10);
  });

  it.each(EVOLVED_BROKEN)(
    'exits 1 and names $check for $name (evolved contract)',
    async ({ check, mutation, args }) => {
      const run = await runAgainst(mutation(), args, EVOLVED);
      expect(namedCheckIds(await run.report()), run.out.slice(-600)).toContain(check);
      expect(run.code).toBe(1);
    },
    60_000,
  );
});
