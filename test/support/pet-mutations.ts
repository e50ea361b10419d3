import { type JsonValue, parseJson, stringifyJson } from '../../src/contract/lossless-json.js';
import type { Mutation, ProxyRequest, ProxyResponse } from './mutating-proxy.js';

/** Building blocks for servers broken in one way (or correct in another): the mock behind a mutating proxy. */
export type Json = Record<string, JsonValue>;

export const pathOf = (req: ProxyRequest) => req.url.split('?')[0] as string;
export const isCreatePet = (req: ProxyRequest) => req.method === 'POST' && pathOf(req) === '/v1/pets';
export const isListPets = (req: ProxyRequest) => req.method === 'GET' && pathOf(req) === '/v1/pets';
export const isGetPet = (req: ProxyRequest) => req.method === 'GET' && /^\/v1\/pets\/[^/]+$/.test(pathOf(req));

/** A getPet whose petId is digits sends to `/v1/pets/<what reroute gives>` instead; any other request as it is. */
export function rerouteGetPet(req: ProxyRequest, reroute: (id: bigint) => bigint | undefined): ProxyRequest {
  const digits = /^\/v1\/pets\/(\d+)$/.exec(pathOf(req))?.[1];
  const to = digits === undefined || !isGetPet(req) ? undefined : reroute(BigInt(digits));
  return to === undefined ? req : { ...req, url: `/v1/pets/${to}` };
}
export const isPet = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && 'name' in value && 'categoryId' in value;

/** Applies `edit` to the parsed body (exact integers) and writes it back. */
export function editJson(res: ProxyResponse, edit: (body: JsonValue) => JsonValue | undefined): ProxyResponse {
  if (!res.body) return res;
  const body = parseJson(res.body);
  return { ...res, body: stringifyJson(edit(body) ?? body) };
}

/** Every Pet in a body, whether the body is one Pet or a list. */
export function eachPet(body: JsonValue, edit: (pet: Json) => void): JsonValue {
  for (const pet of Array.isArray(body) ? body : [body]) if (isPet(pet)) edit(pet);
  return body;
}

/** The answer without header `name` (lower-case). */
export function withoutHeader(res: ProxyResponse, name: string): ProxyResponse {
  const { [name]: _, ...headers } = res.headers;
  return { ...res, headers };
}

export function withQuery(url: string, name: string, value: string): string {
  const parsed = new URL(url, 'http://x');
  parsed.searchParams.set(name, value);
  return `${parsed.pathname}${parsed.search}`;
}

export function withoutQuery(name: string): Mutation['request'] {
  return (req) => {
    const url = new URL(req.url, 'http://x');
    url.searchParams.delete(name);
    return { ...req, url: `${url.pathname}${url.search}` };
  };
}

/**
 * Ids as a snowflake-style server would assign them: mock id n ↔ `toBig(n)`, applied both ways. The server
 * knows its ids exactly; `render` is how it writes them in JSON (a lossy server writes doubles).
 */
export function remapIds(toBig: (n: bigint) => bigint, render: (id: bigint) => JsonValue): Mutation {
  const toSmall = new Map<string, bigint>();
  return {
    request: (req) => {
      const match = /^\/v1\/pets\/([^/?]+)$/.exec(pathOf(req));
      const small = match && toSmall.get(match[1] as string);
      return small === undefined || small === null ? req : { ...req, url: `/v1/pets/${small}` };
    },
    response: (res) => {
      const edited = editJson(res, (body) =>
        eachPet(body, (pet) => {
          const big = toBig(BigInt(pet.id as number));
          toSmall.set(String(big), BigInt(pet.id as number));
          pet.id = render(big);
        }),
      );
      // A created pet's Location names it by the same id its body gives.
      const located = /^(.*\/pets\/)(\d+)$/.exec(edited.headers.location ?? '');
      if (!located) return edited;
      const location = `${located[1]}${String(render(toBig(BigInt(located[2] as string))))}`;
      return { ...edited, headers: { ...edited.headers, location } };
    },
  };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export const errorJson = (status: number) => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ code: 'broken', message: 'deliberately broken', status }),
});
