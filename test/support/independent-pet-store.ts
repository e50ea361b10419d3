import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type JsonValue, parseJson, stringifyJson } from '../../src/contract/lossless-json.js';

/**
 * Choices a correct Pet Store may make where the shipped contract is silent, as frameworks make them by default:
 * 'nfc-names' keeps a name in Unicode NFC (canonically equivalent text); '415-without-json' refuses a body that is
 * not labelled JSON, Content-Type missing too, with HTTP's 415 (Spring); 'bounded-names' refuses a blank name and
 * one over 255 characters with 400 (Spring's @NotBlank and @Size(max = 255)); 'positive-categories' refuses a
 * categoryId below 1 with 400 (@Positive); 'trimmed-names' keeps a name without the whitespace around it (Django
 * REST framework's trim_whitespace, Laravel's TrimStrings).
 */
export type PetStoreChoice = 'nfc-names' | '415-without-json' | 'bounded-names' | 'positive-categories' | 'trimmed-names';

export interface PetStore {
  readonly url: string;
  close(): Promise<void>;
}

type Pet = { id: bigint; name: string; categoryId: bigint; status?: string };

const STATUSES = ['available', 'pending', 'sold'];
const INT64 = /^-?\d{1,19}$/;

/**
 * A Pet Store of the shipped contract written from the seed alone, apart from the mock's code: listPets (limit,
 * status), createPet, getPet, createMessage, bearer auth with one key. Ids start at 10^12; lists are oldest first.
 */
export async function startPetStore(key: string, choices: readonly PetStoreChoice[] = []): Promise<PetStore> {
  const pets: Pet[] = [];
  let nextId = 10n ** 12n;
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => answer(req, res, Buffer.concat(parts).toString('utf8')));
  });

  function answer(req: IncomingMessage, res: ServerResponse, text: string) {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    const allowed =
      path === '/v1/pets'
        ? ['GET', 'POST']
        : /^\/v1\/pets\/[^/]+$/.test(path)
          ? ['GET']
          : path === '/v1/messages'
            ? ['POST']
            : [];
    if (allowed.length === 0) return fail(res, 404, 'not_found');
    if (!allowed.includes(req.method ?? '')) return fail(res, 405, 'method_not_allowed', { allow: allowed.join(', ') });
    if (req.headers.authorization !== `Bearer ${key}`) return fail(res, 401, 'invalid_api_key', { 'www-authenticate': 'Bearer' });
    if (req.method === 'GET' && path === '/v1/pets') return list(res, url.searchParams);
    if (req.method === 'GET') {
      const id = int64(decodeURIComponent(path.slice('/v1/pets/'.length)));
      const pet = id === undefined ? undefined : pets.find((p) => p.id === id);
      return pet ? send(res, 200, shown(pet)) : fail(res, 404, 'pet_not_found');
    }
    if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
      return fail(res, choices.includes('415-without-json') ? 415 : 400, 'invalid_content_type');
    }
    let body: JsonValue;
    try {
      body = parseJson(text);
    } catch {
      return fail(res, 400, 'invalid_json');
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return fail(res, 400, 'validation_failed');
    if (path === '/v1/messages') {
      if (typeof body.message !== 'string') return fail(res, 400, 'validation_failed');
      return send(res, 202, { id: `m${nextId++}`, message: body.message, status: 'queued', createdAt: new Date().toISOString() });
    }
    const { name, categoryId, status } = body;
    const category = int64(typeof categoryId === 'number' || typeof categoryId === 'bigint' ? String(categoryId) : '');
    if (typeof name !== 'string' || category === undefined) return fail(res, 400, 'validation_failed');
    if (status !== undefined && !STATUSES.includes(status as string)) return fail(res, 400, 'validation_failed');
    if (choices.includes('positive-categories') && category < 1n) return fail(res, 400, 'validation_failed');
    if (choices.includes('bounded-names') && (name.trim() === '' || name.length > 255))
      return fail(res, 400, 'validation_failed');
    const trimmed = choices.includes('trimmed-names') ? name.trim() : name;
    const kept = choices.includes('nfc-names') ? trimmed.normalize('NFC') : trimmed;
    const pet: Pet = {
      id: nextId++,
      name: kept,
      categoryId: category,
      ...(status === undefined ? {} : { status: status as string }),
    };
    pets.push(pet);
    return send(res, 201, shown(pet));
  }

  function list(res: ServerResponse, query: URLSearchParams) {
    const limit = query.get('limit') ?? '20';
    const status = query.get('status');
    if (!/^\d{1,3}$/.test(limit) || Number(limit) < 1 || Number(limit) > 100) return fail(res, 400, 'invalid_limit');
    if (status !== null && !STATUSES.includes(status)) return fail(res, 400, 'invalid_status');
    const matching = pets.filter((p) => status === null || p.status === status);
    return send(res, 200, matching.slice(0, Number(limit)).map(shown));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function shown(pet: Pet): JsonValue {
  return { id: pet.id, name: pet.name, categoryId: pet.categoryId, ...(pet.status ? { status: pet.status } : {}) };
}

function int64(text: string): bigint | undefined {
  if (!INT64.test(text)) return undefined;
  const value = BigInt(text);
  return value >= -(2n ** 63n) && value < 2n ** 63n ? value : undefined;
}

function fail(res: ServerResponse, status: number, code: string, headers: Record<string, string> = {}): void {
  send(res, status, { code, message: code.replace(/_/g, ' '), status }, headers);
}

function send(res: ServerResponse, status: number, body: JsonValue, headers: Record<string, string> = {}): void {
  const text = stringifyJson(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
