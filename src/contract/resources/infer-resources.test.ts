import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../load-contract.js';
import { describeResources, summarizeResources } from './describe-resources.js';
import { inferResources } from './infer-resources.js';
import { readNextCursor } from './next-cursor.js';
import type { Resource, ResourceModel } from './resource.js';

const EVOLVED = 'test/contracts/evolved-petstore/openapi.yaml';
const LIBRARY = 'test/contracts/library-api/openapi.yaml';

async function inferFile(file: string): Promise<ResourceModel> {
  return inferResources(await loadContract(file));
}

// JSON is YAML: a contract written as a value, loaded as the tools load any file.
async function inferDocument(paths: object, schemas: object = {}): Promise<ResourceModel> {
  const file = join(await mkdtemp(join(tmpdir(), 'resources-')), 'openapi.yaml');
  await writeFile(file, JSON.stringify({ openapi: '3.0.3', info: { title: 'T', version: '1' }, paths, components: { schemas } }));
  return inferFile(file);
}

function resource(model: ResourceModel, key: string): Resource {
  const found = model.resources.find((r) => r.key === key);
  if (!found) throw new Error(`no resource ${key} in ${model.resources.map((r) => r.key).join(', ')}`);
  return found;
}

const kinds = (r: Resource) => Object.fromEntries(r.operations.map((o) => [o.kind, o.operationId]));
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const answer = (schema: object, code = '200') => ({ [code]: { description: 'ok', ...json(schema) } });
const param = (name: string, schema: object = { type: 'integer' }) => ({ name, in: 'path', required: true, schema });
const thing = { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, name: { type: 'string' } } };

describe('inferResources on the shipped Pet Store', () => {
  it('finds pets, keyed /pets, with id by its path parameter, and create, list and get', async () => {
    const pets = resource(await inferFile('openapi.yaml'), '/pets');
    expect(pets.stateless).toBeUndefined();
    expect(pets.id).toMatchObject({ name: 'id', source: 'path parameter', detail: 'petId' });
    expect(kinds(pets)).toEqual({ create: 'createPet', list: 'listPets', get: 'getPet' });
    expect(pets.list).toEqual({ filters: [{ parameter: 'status', field: 'status' }], paging: { limit: 'limit' }, ignored: [] });
    expect(pets.schemaSource).toBe('get');
    // NewPet has no id: the server assigns it.
    expect(pets.serverFields).toEqual(['id']);
  });

  it('leaves messages stateless: nothing reads a message back', async () => {
    const messages = resource(await inferFile('openapi.yaml'), '/messages');
    expect(messages.stateless).toMatch(/^nothing reads its records back/);
    expect(messages.id).toBeUndefined();
  });
});

describe('inferResources on the evolved Pet Store', () => {
  it('gives pets every CRUD role, PATCH as a merge patch', async () => {
    const pets = resource(await inferFile(EVOLVED), '/pets');
    expect(kinds(pets)).toEqual({
      create: 'createPet',
      list: 'listPets',
      get: 'getPet',
      replace: 'updatePet',
      'merge-patch': 'patchPet',
      delete: 'deletePet',
    });
    expect(pets.skipped).toEqual([]);
  });

  it('finds orders under /store/orders, with their filters, offset paging and server-set fields', async () => {
    const orders = resource(await inferFile(EVOLVED), '/store/orders');
    expect(orders).toMatchObject({
      name: 'orders',
      itemPath: '/store/orders/{orderId}',
      stateless: undefined,
      parent: undefined,
    });
    expect(orders.id).toMatchObject({ name: 'id', source: 'path parameter', detail: 'orderId' });
    expect(kinds(orders)).toEqual({ create: 'createOrder', list: 'listOrders', get: 'getOrder', delete: 'deleteOrder' });
    expect(orders.list?.filters.map((f) => f.field)).toEqual(['status', 'petId']);
    expect(orders.list?.paging).toEqual({ limit: 'limit', offset: 'offset' });
    expect(orders.serverFields).toEqual(['id', 'placedAt']);
  });
});

describe('inferResources on a library API (string ids, nesting)', () => {
  it('nests books under authors: own key, parent, parameters by position, page object unwrapped', async () => {
    const model = await inferFile(LIBRARY);
    const books = resource(model, '/authors/{}/books');
    expect(books).toMatchObject({ name: 'books', parent: '/authors', listPointer: ['items'], stateless: undefined });
    expect(books.operations.find((o) => o.kind === 'get')?.pathParameters).toEqual(['authorId', 'bookId']);
    expect(books.list?.paging).toEqual({ cursor: 'cursor', limit: 'limit' });
    expect(books.serverFields).toEqual(['addedAt']);
  });

  it('takes the id x-resource-id names over the path parameter', async () => {
    const books = resource(await inferFile(LIBRARY), '/authors/{}/books');
    expect(books.id).toMatchObject({ name: 'isbn', source: 'x-resource-id', detail: 'the representation schema' });
  });

  it('matches the path parameter to a property ignoring case and separators, and strips the noun: authorId → id', async () => {
    const model = await inferFile(LIBRARY);
    expect(resource(model, '/members').id).toMatchObject({ name: 'memberId', source: 'path parameter', detail: 'member_id' });
    expect(resource(model, '/authors').id).toMatchObject({ name: 'id', source: 'path parameter', detail: 'authorId' });
    expect(resource(model, '/authors').id?.schema).toMatchObject({ type: 'string', format: 'uuid' });
  });

  it('says why an operation or a resource stays stateless', async () => {
    const model = await inferFile(LIBRARY);
    expect(resource(model, '/authors/{}/books').skipped).toEqual([
      expect.objectContaining({ operationId: 'reserveBook', reason: 'POST on an item path is not CRUD' }),
    ]);
    const stats = resource(model, '/stats');
    expect(stats.stateless).toBe('none of its operations is CRUD');
    expect(stats.skipped[0]?.reason).toBe('its answer is not a list of objects');
    expect(model.unplaced).toEqual([]);
  });
});

describe('inferResources edge cases', () => {
  it('keys two collections with the same last segment apart', async () => {
    const list = (id: string) => ({ get: { operationId: id, responses: answer({ type: 'array', items: thing }) } });
    const model = await inferDocument({ '/sales/orders': list('sales'), '/support/orders': list('support') });
    expect(model.resources.map((r) => [r.key, r.name, r.stateless])).toEqual([
      ['/sales/orders', 'orders', undefined],
      ['/support/orders', 'orders', undefined],
    ]);
  });

  it("finds a HAL list's records one object in, under _embedded", async () => {
    const links = { type: 'object', additionalProperties: { type: 'object', properties: { href: { type: 'string' } } } };
    const page = { type: 'object', properties: { size: { type: 'integer' }, totalElements: { type: 'integer' } } };
    const hal = {
      type: 'object',
      properties: { _embedded: { type: 'object', properties: { orders: { type: 'array', items: thing } } }, _links: links, page },
    };
    const model = await inferDocument({
      '/orders': { get: { operationId: 'listOrders', responses: answer(hal) } },
      '/orders/{id}': { get: { operationId: 'getOrder', parameters: [param('id')], responses: answer(thing) } },
    });
    expect(resource(model, '/orders').listPointer).toEqual(['_embedded', 'orders']);
    expect(kinds(resource(model, '/orders'))).toEqual({ list: 'listOrders', get: 'getOrder' });
  });

  it('joins a collection and its item path whatever their parameters are named', async () => {
    const model = await inferDocument({
      '/users/{id}/orders': {
        get: { operationId: 'list', parameters: [param('id')], responses: answer({ type: 'array', items: thing }) },
      },
      '/users/{userId}/orders/{orderId}': {
        get: { operationId: 'get', parameters: [param('userId'), param('orderId')], responses: answer(thing) },
      },
    });
    expect(model.resources.map((r) => r.key)).toEqual(['/users/{}/orders']);
    expect(kinds(model.resources[0] as Resource)).toEqual({ list: 'list', get: 'get' });
  });

  it('leaves a resource with no id field stateless, naming what was tried', async () => {
    const note = { type: 'object', properties: { text: { type: 'string' } } };
    const model = await inferDocument({
      '/notes/{noteKey}': {
        get: { operationId: 'getNote', parameters: [param('noteKey', { type: 'string' })], responses: answer(note) },
      },
    });
    expect(resource(model, '/notes').stateless).toBe(
      'no id field: no property matches the path parameter noteKey and none is named id',
    );
  });

  it('passes over an id the path parameter cannot carry', async () => {
    const text = { type: 'object', properties: { id: { type: 'string' } } };
    const model = await inferDocument({
      '/things/{thingId}': { get: { operationId: 'getThing', parameters: [param('thingId')], responses: answer(text) } },
    });
    expect(resource(model, '/things').stateless).toBe(
      "no id field: 'id' (string), which the path parameter thingId (integer) cannot carry",
    );
  });

  it('obeys x-resource-id: false on a path item, and refuses one that names no property or disagrees', async () => {
    const item = (extensions: object) => ({
      ...extensions,
      get: { operationId: `get${Object.keys(extensions).length}`, parameters: [param('thingId')], responses: answer(thing) },
    });
    const off = await inferDocument({ '/things/{thingId}': item({ 'x-resource-id': false }) });
    expect(resource(off, '/things').stateless).toBe('x-resource-id is false at path /things/{thingId}');
    const missing = await inferDocument({ '/things/{thingId}': item({ 'x-resource-id': 'code' }) });
    expect(resource(missing, '/things').stateless).toBe(
      "x-resource-id at path /things/{thingId} names 'code', which the representation does not have",
    );
    const named = { ...thing, 'x-resource-id': 'name' };
    const disagree = await inferDocument({
      '/things/{thingId}': {
        'x-resource-id': 'id',
        get: { operationId: 'g', parameters: [param('thingId', { type: 'string' })], responses: answer(named) },
      },
    });
    expect(resource(disagree, '/things').stateless).toBe(
      'x-resource-id says "id" at path /things/{thingId} but "name" at the representation schema',
    );
  });

  it('reads an allOf representation, with a readOnly id from one of its members', async () => {
    const schemas = {
      NewThing: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      Thing: {
        allOf: [
          { $ref: '#/components/schemas/NewThing' },
          { type: 'object', properties: { id: { type: 'integer', readOnly: true } } },
        ],
      },
    };
    const model = await inferDocument(
      {
        '/things': {
          post: {
            operationId: 'create',
            requestBody: json({ $ref: '#/components/schemas/NewThing' }),
            responses: answer({ $ref: '#/components/schemas/Thing' }, '201'),
          },
        },
        '/things/{thingId}': {
          get: { operationId: 'get', parameters: [param('thingId')], responses: answer({ $ref: '#/components/schemas/Thing' }) },
        },
      },
      schemas,
    );
    const things = resource(model, '/things');
    expect(things.id?.name).toBe('id');
    expect(things.serverFields).toEqual(['id']);
  });

  it('follows an OpenAPI link from the create answer to the item parameter before guessing', async () => {
    const ticket = { type: 'object', properties: { id: { type: 'integer' }, code: { type: 'string' } } };
    const links = { self: { operationId: 'getTicket', parameters: { ticket: '$response.body#/code' } } };
    const model = await inferDocument({
      '/tickets': {
        post: {
          operationId: 'open',
          requestBody: json(ticket),
          responses: { '201': { description: 'ok', ...json(ticket), links } },
        },
      },
      '/tickets/{ticket}': {
        get: { operationId: 'getTicket', parameters: [param('ticket', { type: 'string' })], responses: answer(ticket) },
      },
    });
    expect(resource(model, '/tickets').id).toMatchObject({ name: 'code', source: 'link' });
  });

  it('unwraps a lone data wrapper around a record, and strips the noun from bookIsbn', async () => {
    const book = { type: 'object', properties: { isbn: { type: 'string' }, title: { type: 'string' } } };
    const model = await inferDocument({
      '/books/{bookIsbn}': {
        get: {
          operationId: 'get',
          parameters: [param('bookIsbn', { type: 'string' })],
          responses: answer({ type: 'object', properties: { data: book } }),
        },
      },
    });
    const books = resource(model, '/books');
    expect(books.schema).toMatchObject({ properties: { isbn: { type: 'string' } } });
    expect(books.id).toMatchObject({ name: 'isbn', source: 'path parameter' });
  });

  it('finds the record inside an envelope of any name with members beside it, in requests and answers alike', async () => {
    const envelope = {
      type: 'object',
      required: ['customer', 'meta'],
      properties: { customer: thing, meta: { type: 'object', properties: { request_id: { type: 'string' } } } },
    };
    const input = {
      type: 'object',
      required: ['customer'],
      properties: { customer: { type: 'object', properties: { name: { type: 'string' } } } },
    };
    const model = await inferDocument({
      '/things': {
        post: { operationId: 'create', requestBody: { required: true, ...json(input) }, responses: answer(envelope, '201') },
      },
      '/things/{thingId}': {
        get: { operationId: 'get', parameters: [param('thingId')], responses: answer(envelope) },
        // A body that names a field of the record at its top is the record itself, whatever else it holds.
        put: {
          operationId: 'replace',
          parameters: [param('thingId')],
          requestBody: { required: true, ...json(thing) },
          responses: answer(thing),
        },
      },
    });
    const things = resource(model, '/things');
    expect(things.id).toMatchObject({ name: 'id', source: 'path parameter' });
    expect(things.schema).toEqual(thing);
    const places = Object.fromEntries(things.operations.map((o) => [o.kind, [o.requestRecord, o.answerRecord]]));
    expect(places).toEqual({ create: [['customer'], ['customer']], get: [[], ['customer']], replace: [[], []] });
  });

  it('reads the record of a write body inside its wrapper when the only member beside it repeats a path parameter', async () => {
    // protoc-gen-openapi's PUT of a Go service: `{ slug, article: {...} }` at PUT /api/articles/{slug}.
    const model = await inferFile('test/contracts/kratos-articles/openapi.yaml');
    const places = Object.fromEntries(resource(model, '/api/articles').operations.map((o) => [o.kind, o.requestRecord]));
    expect(places).toMatchObject({ create: ['article'], replace: ['article'] });
  });

  it('reads an object with a field of its own as the record, not as an envelope around its one object member', async () => {
    const owner = { type: 'object', properties: { id: { type: 'integer' } } };
    const pet = { type: 'object', required: ['owner'], properties: { name: { type: 'string' }, owner } };
    const model = await inferDocument({
      '/pets/{petId}': { get: { operationId: 'get', parameters: [param('petId')], responses: answer(pet) } },
    });
    expect(resource(model, '/pets').stateless).toMatch(/^no id field/);
  });

  it('leaves a JSON Patch-only PATCH stateless and a path with no collection shape unplaced', async () => {
    const model = await inferDocument({
      '/things/{thingId}': {
        get: { operationId: 'get', parameters: [param('thingId')], responses: answer(thing) },
        patch: {
          operationId: 'jsonPatch',
          parameters: [param('thingId')],
          requestBody: { content: { 'application/json-patch+json': { schema: { type: 'array', items: { type: 'object' } } } } },
          responses: answer(thing),
        },
      },
      '/files/{name}.json': {
        get: { operationId: 'file', parameters: [param('name', { type: 'string' })], responses: answer(thing) },
      },
    });
    expect(resource(model, '/things').skipped).toEqual([
      expect.objectContaining({
        operationId: 'jsonPatch',
        reason: 'its body is neither application/merge-patch+json (RFC 7396) nor application/json',
      }),
    ]);
    expect(model.unplaced).toEqual([
      expect.objectContaining({ operationId: 'file', reason: 'its last segment is neither fixed nor wholly a parameter' }),
    ]);
  });
});

describe('a PUT that creates at an id the client chooses (rule 11)', () => {
  const named = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, size: { type: 'integer' } } };
  const body = { requestBody: { required: true, ...json({ type: 'object', properties: { size: { type: 'integer' } } }) } };
  const put = (responses: object) => ({ operationId: 'putThing', ...body, responses });
  const paths = (responses: object, post?: object, shown: object = named) => ({
    '/things': { get: { operationId: 'listThings', responses: answer({ type: 'array', items: shown }) }, ...post },
    '/things/{name}': {
      parameters: [param('name', { type: 'string' })],
      get: { operationId: 'getThing', responses: answer(shown) },
      put: put(responses),
    },
  });
  const creates = async (responses: object, post?: object, shown?: object) =>
    resource(await inferDocument(paths(responses, post, shown)), '/things').operations.find((o) => o.kind === 'replace')?.creates;

  it('creates where the resource has no create and the PUT documents 201, whatever else it documents', async () => {
    expect(await creates({ ...answer(named), ...answer(named, '201'), 404: { description: 'no parent' } })).toBe(true);
  });

  it('creates where it documents only 200 or 204 and no 404: it is the only way a record is made', async () => {
    expect(await creates(answer(named))).toBe(true);
    expect(await creates({ 204: { description: 'stored' } })).toBe(true);
  });

  it('only replaces where it documents 404 and no 201, the id is readOnly and no 201, or the resource has a create', async () => {
    expect(await creates({ ...answer(named), 404: { description: 'absent' } })).toBeUndefined();
    const serverNamed = { ...named, properties: { ...named.properties, name: { type: 'string', readOnly: true } } };
    expect(await creates(answer(named), undefined, serverNamed)).toBeUndefined();
    expect(await creates(answer(named, '201'), undefined, serverNamed)).toBe(true);
    const post = { post: { operationId: 'createThing', ...body, responses: answer(named, '201') } };
    expect(await creates(answer(named, '201'), post)).toBeUndefined();
  });

  it('is printed as create-or-replace in both summaries', async () => {
    const model = await inferDocument(paths(answer(named, '201')));
    expect(summarizeResources(model)).toBe('/things (name: list, get, create-or-replace)');
    expect(describeResources(model)).toContain('  create-or-replace putThing PUT /things/{name}');
  });
});

describe('where a cursor-paged list carries its next cursor', () => {
  const query = (name: string) => ({ name, in: 'query', schema: { type: 'string' } });
  const list = (answered: object, parameter = 'cursor') => ({
    '/things': { get: { operationId: 'listThings', parameters: [query(parameter)], responses: answered } },
    '/things/{id}': { get: { operationId: 'getThing', parameters: [param('id')], responses: answer(thing) } },
  });
  const page = (properties: object) =>
    answer({ type: 'object', properties: { items: { type: 'array', items: thing }, ...properties } });

  it("reads listBooks' `next` beside its items", async () => {
    const books = resource(await inferFile(LIBRARY), '/authors/{}/books');
    expect(books.list?.paging.cursor).toBe('cursor');
    expect(books.list?.next).toEqual({ in: 'body', pointer: ['next'] });
  });

  it('finds nextPageToken beside the items, next_cursor in a page object, and a declared Link header', async () => {
    const token = await inferDocument(list(page({ nextPageToken: { type: 'string' } }), 'pageToken'));
    expect(resource(token, '/things').list?.next).toEqual({ in: 'body', pointer: ['nextPageToken'] });
    const nested = await inferDocument(list(page({ page: { type: 'object', properties: { next_cursor: { type: 'string' } } } })));
    expect(resource(nested, '/things').list?.next).toEqual({ in: 'body', pointer: ['page', 'next_cursor'] });
    const linked = {
      '200': { description: 'ok', headers: { Link: { schema: { type: 'string' } } }, ...json({ type: 'array', items: thing }) },
    };
    expect(resource(await inferDocument(list(linked)), '/things').list?.next).toEqual({ in: 'link' });
  });

  it('says nothing where the contract is silent, or the list takes no cursor', async () => {
    expect(resource(await inferDocument(list(page({ total: { type: 'integer' } }))), '/things').list?.next).toBeUndefined();
    expect(resource(await inferDocument(list(page({ next: { type: 'string' } }), 'q')), '/things').list?.next).toBeUndefined();
  });
});

describe('readNextCursor', () => {
  it('reads a field, and the cursor of a Link rel="next" URL; an empty or null one ends the walk', () => {
    expect(readNextCursor({ in: 'body', pointer: ['page', 'next'] }, 'cursor', { page: { next: 'b2' } }, undefined)).toBe('b2');
    expect(readNextCursor({ in: 'body', pointer: ['next'] }, 'cursor', { next: null }, undefined)).toBeUndefined();
    expect(readNextCursor({ in: 'body', pointer: ['next'] }, 'cursor', { next: '' }, undefined)).toBeUndefined();
    const link = '</things?cursor=1>; rel="prev", </things?limit=2&cursor=x%2By>; rel="next"';
    expect(readNextCursor({ in: 'link' }, 'cursor', [], link)).toBe('x+y');
    expect(readNextCursor({ in: 'link' }, 'cursor', [], '</things?cursor=1>; rel="prev"')).toBeUndefined();
  });
});
