import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../src/contract/lossless-json.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import type { Mutation, ProxyRequest, ProxyResponse } from '../support/mutating-proxy.js';
import {
  delay,
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
  withoutHeader,
  withoutQuery,
  withQuery,
} from '../support/pet-mutations.js';
import { blockingCheckIds } from './run-cli.js';
import { useMutatedMock } from './use-mutated-mock.js';

const UNAUTHORIZED: ProxyResponse = {
  status: 401,
  headers: { 'content-type': 'application/json' },
  body: '{"code":"invalid_api_key","message":"no key","status":401}',
};

/** Requests `which` picks that carry no key are served as if they carried the run's, then answered `answer(res)`. */
function servedWithoutKey(which: (req: ProxyRequest) => boolean, answer: (res: ProxyResponse) => ProxyResponse): Mutation {
  const unauthenticated = new WeakSet<ProxyRequest>();
  return {
    request: (req) => {
      if (!which(req) || req.headers.authorization !== undefined) return req;
      unauthenticated.add(req);
      return { ...req, headers: { ...req.headers, authorization: `Bearer ${DEV_API_KEY}` } };
    },
    response: (res, req) => (unauthenticated.has(req) ? answer(res) : res),
  };
}

/** Each variant breaks one rule of the contract; `check` is the check that must name it, in a finding titled `title`. */
const BROKEN: readonly { name: string; check: string; title?: RegExp; mutation: () => Mutation; args?: string[] }[] = [
  {
    name: 'a wrong status: createPet answers 200 instead of 201',
    check: 'status-documented',
    mutation: () => ({ response: (res, req) => (isCreatePet(req) && res.status === 201 ? { ...res, status: 200 } : res) }),
  },
  {
    name: 'an unexpected status: createPet accepts invalid bodies with 201',
    check: 'status-expected',
    mutation: () => ({
      response: (res, req) =>
        isCreatePet(req) && res.status === 400
          ? { status: 201, headers: res.headers, body: '{"id":1,"name":"Rex","categoryId":1}' }
          : res,
    }),
  },
  {
    name: 'a missing field: pets come back without name',
    check: 'body-schema',
    mutation: () => ({
      response: (res) =>
        editJson(res, (body) =>
          eachPet(body, (pet) => {
            delete pet.name;
          }),
        ),
    }),
  },
  {
    name: 'a wrong type: ids come back as strings',
    check: 'body-schema',
    mutation: () => ({
      response: (res) =>
        editJson(res, (body) =>
          eachPet(body, (pet) => {
            pet.id = String(pet.id);
          }),
        ),
    }),
  },
  {
    name: 'an Error status that differs from the HTTP status',
    check: 'error-status-matches',
    mutation: () => ({
      response: (res) => (res.status === 401 ? editJson(res, (body) => ({ ...(body as Json), status: 400 })) : res),
    }),
  },
  {
    name: 'a 401 without an Error body',
    check: 'body-schema',
    mutation: () => ({ response: (res) => (res.status === 401 ? { ...res, body: '' } : res) }),
  },
  {
    name: 'ignored auth: every request is served as if it carried the key',
    check: 'auth-enforced',
    mutation: () => ({ request: (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${DEV_API_KEY}` } }) }),
  },
  {
    name: 'an ignored limit',
    check: 'body-expected',
    mutation: () => ({ request: withoutQuery('limit') }),
  },
  {
    name: 'a wrong default limit: 10 pets when no limit is given',
    check: 'body-expected',
    title: /body: 10 items/,
    mutation: () => ({
      request: (req) =>
        isListPets(req) && !/[?&]limit=/.test(req.url) ? { ...req, url: withQuery(req.url, 'limit', '10') } : req,
    }),
  },
  {
    name: 'a limit between the ends answered with the default page: 20 pets for any limit from 2 to 99',
    check: 'body-expected',
    // The seed chooses the limit between the ends (81 with seed 1): a random one may be 20, which this server
    // answers rightly, and the run would pass.
    args: ['--seed', '1'],
    mutation: () => ({
      request: (req) => {
        const limit = Number(/[?&]limit=(\d+)/.exec(req.url)?.[1]);
        return isListPets(req) && limit >= 2 && limit <= 99 ? { ...req, url: withQuery(req.url, 'limit', '20') } : req;
      },
    }),
  },
  {
    name: 'getPet looks the pet up before it checks the key: an unknown id without a key is a 404',
    check: 'status-expected',
    title: /expected status 401, got 404/,
    mutation: () => servedWithoutKey(isGetPet, (res) => (res.status !== 404 ? UNAUTHORIZED : res)),
  },
  {
    name: 'a key with characters before it is accepted (the header is matched by its end)',
    check: 'auth-enforced',
    mutation: () => ({
      request: (req) =>
        req.headers.authorization?.endsWith(DEV_API_KEY)
          ? { ...req, headers: { ...req.headers, authorization: `Bearer ${DEV_API_KEY}` } }
          : req,
    }),
  },
  {
    name: 'createPet parses the body before it checks the key: invalid JSON without a key is a 400',
    check: 'status-expected',
    title: /expected status 401, got 400/,
    mutation: () => ({
      request: (req) =>
        isCreatePet(req) && req.headers.authorization === undefined && req.body.startsWith('{"name":') && !req.body.endsWith('}')
          ? { ...req, headers: { ...req.headers, authorization: `Bearer ${DEV_API_KEY}` } }
          : req,
    }),
  },
  {
    name: 'createPet stores a pet whose status is not in the enum, then answers 400',
    check: 'refused-not-stored',
    mutation: () => {
      const refused = new WeakSet<ProxyRequest>();
      return {
        request: (req) => {
          if (!isCreatePet(req)) return req;
          try {
            const body = parseJson(req.body) as Json;
            if (!isPet(body) || body.status === undefined || ['available', 'pending', 'sold'].includes(String(body.status)))
              return req;
            const { status: _, ...stored } = body;
            refused.add(req);
            return { ...req, body: stringifyJson(stored) };
          } catch {
            return req;
          }
        },
        response: (res, req) =>
          refused.has(req)
            ? {
                status: 400,
                headers: { 'content-type': 'application/json' },
                body: '{"code":"validation_failed","message":"status","status":400}',
              }
            : res,
      };
    },
  },
  {
    name: 'auth bypassed at /pets/: a trailing slash is served without a key, as if the key were there',
    check: 'auth-enforced',
    title: /without an Authorization header was served/,
    mutation: () => ({
      request: (req) =>
        /^\/v1\/pets\/(\?|$)/.test(req.url) && req.headers.authorization === undefined
          ? {
              ...req,
              url: req.url.replace('/v1/pets/', '/v1/pets'),
              headers: { ...req.headers, authorization: `Bearer ${DEV_API_KEY}` },
            }
          : req,
    }),
  },
  {
    name: 'createPet stores a pet sent without a key, then answers 401',
    check: 'refused-not-stored',
    mutation: () => servedWithoutKey(isCreatePet, () => UNAUTHORIZED),
  },
  {
    name: 'a status filter without limit answers every match, not the default page of 20',
    check: 'list-within-query',
    title: /for no limit \(default 20\)/,
    mutation: () => ({
      request: (req) =>
        isListPets(req) && /[?&]status=/.test(req.url) && !/[?&]limit=/.test(req.url)
          ? { ...req, url: withQuery(req.url, 'limit', '100') }
          : req,
    }),
  },
  {
    name: 'a status filter applied only when a limit is given too',
    check: 'list-within-query',
    title: /filtered by status=/,
    mutation: () => ({
      request: (req) => (isListPets(req) && !/[?&]limit=/.test(req.url) ? (withoutQuery('status')?.(req) as ProxyRequest) : req),
    }),
  },
  {
    name: 'limit=20 sent explicitly answered with the whole list',
    check: 'body-expected',
    mutation: () => ({
      request: (req) =>
        isListPets(req) && /[?&]limit=20(&|$)/.test(req.url) ? { ...req, url: withQuery(req.url, 'limit', '100') } : req,
    }),
  },
  {
    name: 'created pets never appear in lists',
    check: 'body-expected',
    title: /none of the \d+ items contains \{"id":\d+,"name":"Filter (available|pending|sold) /,
    mutation: () => {
      const created = new Set<string>();
      return {
        response: (res, req) => {
          if (isCreatePet(req) && res.status === 201) created.add(String((parseJson(res.body) as Json).id));
          if (!isListPets(req) || res.status !== 200) return res;
          return editJson(res, (body) => (body as Json[]).filter((pet) => !created.has(String(pet.id))));
        },
      };
    },
  },
  {
    name: 'an ignored status filter',
    check: 'body-expected',
    mutation: () => ({ request: withoutQuery('status') }),
  },
  {
    name: 'lost state: pets created through the API cannot be fetched',
    check: 'status-expected',
    mutation: () => {
      const created = new Set<string>();
      return {
        request: (req) => (isGetPet(req) && created.has(pathOf(req)) ? errorJson(404) : req),
        response: (res, req) => {
          if (isCreatePet(req) && res.status === 201) created.add(`/v1/pets/${(parseJson(res.body) as Json).id}`);
          return res;
        },
      };
    },
  },
  {
    name: 'a 500 on invalid JSON',
    check: 'no-server-error',
    mutation: () => ({
      request: (req) => {
        if (req.method !== 'POST') return req;
        try {
          parseJson(req.body);
          return req;
        } catch {
          return errorJson(500);
        }
      },
    }),
  },
  {
    name: 'a missing Content-Type is accepted as JSON',
    check: 'status-expected',
    mutation: () => ({
      request: (req) =>
        req.method === 'POST' ? { ...req, headers: { ...req.headers, 'content-type': 'application/json' } } : req,
    }),
  },
  {
    name: 'createPet accepts a JSON body sent as text/plain (its 400 covers a request without Content-Type: application/json)',
    check: 'status-expected',
    title: /expected status 400 or 415, got 201/,
    mutation: () => ({ request: (req) => (isCreatePet(req) ? asJson(req) : req) }),
  },
  {
    name: 'a 401 without WWW-Authenticate (RFC 9110 §15.5.2: MUST)',
    check: 'challenge-on-401',
    mutation: () => ({ response: (res) => (res.status === 401 ? withoutHeader(res, 'www-authenticate') : res) }),
  },
  {
    name: 'a 405 without Allow for createMessage (RFC 9110 §15.5.6: MUST)',
    check: 'allow-on-405',
    mutation: () => ({ request: (req) => (pathOf(req) === '/v1/messages' ? errorJson(405) : req) }),
  },
  {
    name: 'a wrong content type: text/plain',
    check: 'content-type-json',
    mutation: () => ({ response: (res) => ({ ...res, headers: { ...res.headers, 'content-type': 'text/plain' } }) }),
  },
  {
    name: 'a byte order mark before every JSON body (RFC 8259 §8.1: must not)',
    check: 'json-without-bom',
    mutation: () => ({ response: (res) => (res.body === '' ? res : { ...res, body: `\uFEFF${res.body}` }) }),
  },
  {
    name: 'a list that is not an array',
    check: 'body-schema',
    mutation: () => ({
      response: (res, req) => (isListPets(req) && res.status === 200 ? editJson(res, (body) => ({ items: body })) : res),
    }),
  },
  {
    name: 'int64 ids that lose digits past 2^53 (written as doubles)',
    check: 'status-expected',
    mutation: () =>
      remapIds(
        (n) => 2n ** 53n + 2n * n + 1n,
        (id) => Number(id),
      ),
  },
  {
    name: 'an answer slower than --timeout',
    check: 'answered',
    args: ['--timeout', '300'],
    mutation: () => ({
      response: async (res, req) => {
        if (isGetPet(req)) await delay(800);
        return res;
      },
    }),
  },
  {
    name: 'an answer within --timeout but slower than --max-response-time',
    check: 'response-time',
    title: /answered in \d+ ms/,
    // response-time is low: only --fail-on low makes it fail the run.
    args: ['--timeout', '10000', '--max-response-time', '150', '--fail-on', 'low'],
    mutation: () => ({
      response: async (res, req) => {
        if (isGetPet(req)) await delay(400);
        return res;
      },
    }),
  },
];

/** The request as if it had been sent as application/json, whatever its Content-Type said. */
function asJson(req: ProxyRequest): ProxyRequest {
  return req.headers['content-type'] === 'text/plain'
    ? { ...req, headers: { ...req.headers, 'content-type': 'application/json' } }
    : req;
}

/** Chooses a correct server may make where the contract is silent. */
function correctButDifferent(): Mutation {
  const ids = remapIds(
    (n) => 2n ** 60n + n,
    (id) => id,
  );
  return {
    request: (req) => {
      const next = ids.request?.(req) as ProxyRequest;
      // Another default status for a pet created without one.
      if (isCreatePet(next) && next.headers['content-type'] === 'application/json') {
        try {
          const body = parseJson(next.body) as Json;
          if (isPet(body) && body.status === undefined) return { ...next, body: stringifyJson({ ...body, status: 'pending' }) };
        } catch {}
      }
      // Out-of-range limits clamped rather than refused; an unknown status gives an empty list.
      if (isListPets(next)) {
        const url = new URL(next.url, 'http://x');
        const limit = url.searchParams.get('limit');
        if (limit !== null && !/^\d+$/.test(limit)) url.searchParams.delete('limit');
        else if (limit !== null) url.searchParams.set('limit', String(Math.min(100, Math.max(1, Number(limit)))));
        const status = url.searchParams.get('status');
        // (after auth, as the mock behind it would have checked it first)
        if (
          status !== null &&
          !['available', 'pending', 'sold'].includes(status) &&
          next.headers.authorization === `Bearer ${DEV_API_KEY}`
        ) {
          return { status: 200, headers: { 'content-type': 'application/json' }, body: '[]' };
        }
        return { ...next, url: `${url.pathname}${url.search}` };
      }
      return next;
    },
    response: async (res, req) => {
      const remapped = await (ids.response?.(res, req) as ProxyResponse);
      const extended = editJson(remapped, (body) => {
        // Another order, and fields the contract does not list.
        const list = Array.isArray(body) ? [...body].reverse() : body;
        for (const item of Array.isArray(list) ? list : [list]) {
          if (item !== null && typeof item === 'object' && !Array.isArray(item)) (item as Json).xTraceId = 'abc123';
        }
        return list;
      });
      if (!(req.method === 'POST' && pathOf(req) === '/v1/messages' && res.status === 202)) return extended;
      // Another 2XX for createMessage, and its text answered trimmed and cut (the seed never says it comes back).
      const trimmed = editJson(extended, (body) => ({
        ...(body as Json),
        message: String((body as Json).message)
          .trim()
          .slice(0, 100),
      }));
      return { ...trimmed, status: 201 };
    },
  };
}

describe('the runner against deliberately broken servers', () => {
  const runAgainst = useMutatedMock();

  it.each(BROKEN)('exits 1 and names $check for $name', async ({ check, title, mutation, args }) => {
    const run = await runAgainst(mutation(), args);
    expect(run.err).toBe('');
    expect(run.code).toBe(1);
    const report = await run.report();
    expect(blockingCheckIds(report)).toContain(check);
    if (title) {
      const titles = report.scenarios.flatMap((s) => s.findings.filter((f) => f.checkId === check).map((f) => f.title));
      expect(titles).toContainEqual(expect.stringMatching(title));
    }
  });

  it('passes a correct server with a rate limit, sending each request it refused with 429 again, and says so', async () => {
    let requests = 0;
    const run = await runAgainst({
      request: (req) =>
        ++requests % 7 === 0
          ? {
              status: 429,
              headers: { 'content-type': 'application/json', 'retry-after': '0' },
              body: '{"code":"slow_down","message":"too many","status":429}',
            }
          : req,
    });
    const report = await run.report();
    expect(report.scenarios.flatMap((s) => s.findings)).toEqual([]);
    expect(run.code).toBe(0);
    expect(report.hints).toContainEqual(
      expect.stringMatching(/^The target rate-limited the run: \d+ requests were sent again after a 429/),
    );
  });

  // createMessage documents only 2XX and 401: what it does with a JSON body sent as text/plain is its own choice.
  it('passes a correct server that accepts a JSON body sent as text/plain on an operation documenting no refusal, and records it', async () => {
    const run = await runAgainst({
      request: (req) => (req.method === 'POST' && pathOf(req) === '/v1/messages' ? asJson(req) : req),
    });
    const report = await run.report();
    expect(report.scenarios.flatMap((s) => s.findings)).toEqual([]);
    expect(run.code).toBe(0);
    const textPlain = report.scenarios.find((s) => s.id === 'media-types/createMessage/text-plain');
    expect(textPlain?.observations).toContainEqual(
      expect.objectContaining({ note: expect.stringMatching(/text\/plain/), status: 202 }),
    );
  });

  it('passes a correct server that chooses differently where the contract is silent', async () => {
    const run = await runAgainst(correctButDifferent());
    const report = await run.report();
    expect(report.scenarios.flatMap((s) => s.findings)).toEqual([]);
    expect(run.code).toBe(0);
    // The choices were really made: ids above 2^53 were used, and the default status differed.
    const observed = report.scenarios.flatMap((s) => s.observations).map((o) => o.body);
    expect(observed.some((body) => /"id":11529215046068469\d\d/.test(body) && /"status":"pending"/.test(body))).toBe(true);
  });
});
