import type { Contract } from '../../contract/load-contract.js';
import type { Operation } from '../../contract/operation.js';
import { inferResources } from '../../contract/resources/infer-resources.js';
import type { Resource, ResourceOperationKind } from '../../contract/resources/resource.js';
import { parseJson } from '../../contract/lossless-json.js';
import { objectShape, type RawSchema } from '../../contract/resources/object-shape.js';
import { ERROR_CODES, type ErrorCode, mockError, statusOf } from '../error-codes.js';
import type { Handler, HandlerContext, MockResponse } from '../handler.js';
import type { RequestInput } from '../connection/read-request.js';
import { fillServerFields, type RequestFields } from '../store/fill-server-fields.js';
import { mergePatch } from '../store/merge-patch.js';
import { readStoreQuery } from '../store/read-store-query.js';
import type { RecordId, RecordStore } from '../store/record-store.js';
import { scopeOf } from '../store/resource-stores.js';

/** A resource operation the mock answers from its store, and whether it changes the store (makes a session). */
export interface ResourceHandler {
  readonly handler: Handler;
  readonly writes: boolean;
}

/**
 * The generic handlers, by operationId, for every operation the resource model (src/contract/resources) gives a
 * CRUD role on a served resource (see servedResources): one handler per kind, none per operation.
 */
export function resourceHandlers(contract: Contract, resources: readonly Resource[]): Map<string, ResourceHandler> {
  const handlers = new Map<string, ResourceHandler>();
  for (const resource of resources) {
    for (const op of resource.operations) {
      const operation = contract.byId.get(op.operationId);
      if (!operation) continue;
      handlers.set(op.operationId, { handler: KINDS[op.kind](resource, operation, contract), writes: WRITES.has(op.kind) });
    }
  }
  return handlers;
}

/**
 * The resources the generic handlers serve: stateful in the model, with a create (a resource the API can only
 * read would answer an empty list for ever, where the contract's examples show data: it stays with Prism, the
 * mock's choice in docs/reference/open-choices.md). The shipped Pet Store's pets are one of them.
 */
export function servedResources(contract: Contract): Resource[] {
  return inferResources(contract).resources.filter(
    (resource) =>
      resource.stateless === undefined && resource.id !== undefined && resource.operations.some((op) => op.kind === 'create'),
  );
}

const WRITES: ReadonlySet<ResourceOperationKind> = new Set(['create', 'replace', 'merge-patch', 'delete']);

type MakeHandler = (resource: Resource, operation: Operation, contract: Contract) => Handler;

// Up to this many characters a list is one string, sent in one write (every list of ordinary records); past it the
// records are streamed, so a page of 100 records with 1 MB names is never copied into a 100 MB string per request.
const JOINED_UP_TO = 64 * 1024;

const KINDS: Readonly<Record<ResourceOperationKind, MakeHandler>> = {
  create: (resource, operation) => {
    const request = requestFields(resource, operation);
    return (input, context) => {
      const { store, parents } = locate(resource, operation, input, context, 'collection');
      const record = fillServerFields(resource, (input.body ?? {}) as Record<string, unknown>, new Date(), request);
      const { id, json } = store.createRecord(record, scopeOf(parents));
      const location = `${context.basePath}${fillPath(resource.collectionPath, parents)}/${encodeURIComponent(String(id))}`;
      return { ...answer(operation, json, 201), headers: { Location: location } };
    };
  },
  list: (resource, operation) => (input, context) => {
    const { store, parents } = locate(resource, operation, input, context, 'collection');
    const parts = store.listJson(readStoreQuery(resource, operation, input.query, scopeOf(parents)));
    return listAnswer(replyOf(operation, 200).status, parts, resource.listPointer);
  },
  get: (resource, operation) => (input, context) => {
    const { json } = found(resource, operation, input, context);
    return answer(operation, json, 200);
  },
  replace: (resource, operation) => {
    const request = requestFields(resource, operation);
    return (input, context) => {
      const { store, id, scope, json } = found(resource, operation, input, context);
      const body = (input.body ?? {}) as Record<string, unknown>;
      const record = keepServerFields(resource, readRecord(json), fillServerFields(resource, body, new Date(), request));
      return answer(operation, store.replace(id, record, scope) as string, 200);
    };
  },
  'merge-patch': (resource, operation) => (input, context) => {
    const { store, id, scope, json } = found(resource, operation, input, context);
    const old = readRecord(json);
    const patched = mergePatch(old, input.body) as Record<string, unknown>;
    if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) {
      throw mockError('validation_failed', 'body: a merge patch of a record must be a JSON object (RFC 7396)');
    }
    const record = keepServerFields(resource, old, patched);
    const missing = requiredOf(resource).find((name) => record[name] === undefined);
    // RFC 7396 null removes a member; removing one the representation requires would store an invalid record.
    if (missing !== undefined) throw mockError('validation_failed', `body.${missing}: a required field cannot be removed`);
    return answer(operation, store.replace(id, record, scope) as string, 200);
  },
  delete: (resource, operation) => (input, context) => {
    const { id, parents, json } = found(resource, operation, input, context);
    context.resources.remove(resource.key, id, parents);
    return answer(operation, json, 204);
  },
};

interface Located {
  readonly store: RecordStore;
  readonly parents: readonly RecordId[];
}

// The resource's store and the parents' ids the path names, outermost first; a parent that does not exist is the
// documented 404, so nothing is ever created under, or listed from, a parent that is not there.
function locate(
  resource: Resource,
  operation: Operation,
  input: RequestInput,
  context: HandlerContext,
  at: 'collection' | 'item',
): Located {
  // Served resources are stateful with an id, so they always have a store.
  const store = context.resources.storeFor(resource) as RecordStore;
  const names = pathParameterNames(operation.path);
  const count = at === 'item' ? names.length - 1 : names.length;
  const parents = names.slice(0, count).map((name) => idOf(input.path[name]));
  checkParents(resource, parents, context);
  return { store, parents };
}

function checkParents(resource: Resource, parents: readonly RecordId[], context: HandlerContext): void {
  let key = resource.parent;
  for (let depth = parents.length - 1; depth >= 0 && key !== undefined; depth--) {
    const parent = context.resources.store(key);
    if (!parent) return;
    if (parent.getJson(parents[depth] as RecordId, scopeOf(parents.slice(0, depth))) === undefined) {
      throw notFound(key, parents[depth] as RecordId);
    }
    key = context.resources.parentOf(key);
  }
}

function found(resource: Resource, operation: Operation, input: RequestInput, context: HandlerContext) {
  const { store, parents } = locate(resource, operation, input, context, 'item');
  const names = pathParameterNames(operation.path);
  const id = recordId(resource, input.path[names[names.length - 1] as string]);
  const scope = scopeOf(parents);
  const json = id === undefined ? undefined : store.getJson(id, scope);
  if (json === undefined || id === undefined)
    throw notFound(resource.key, input.path[names[names.length - 1] as string], notFoundCode(operation));
  return { store, parents, id, scope, json };
}

function notFound(key: string, id: unknown, code: ErrorCode = 'record_not_found') {
  return mockError(code, `no record of ${key} has id ${String(id).slice(0, 80)}`);
}

const notFoundCodes = new WeakMap<Operation, ErrorCode>();

// The operation's documented 404 in its own code, when the contract's example gives one the mock answers 404 with
// (the Pet Store's `pet_not_found`); else record_not_found.
function notFoundCode(operation: Operation): ErrorCode {
  let code = notFoundCodes.get(operation);
  if (code === undefined) {
    const media = operation.responses.find((r) => r.code === '404')?.contents.find((c) => c.example !== undefined);
    const named = (media?.example as { code?: unknown } | undefined)?.code;
    code =
      typeof named === 'string' && Object.hasOwn(ERROR_CODES, named) && statusOf(named) === 404
        ? (named as ErrorCode)
        : 'record_not_found';
    notFoundCodes.set(operation, code);
  }
  return code;
}

// A path value as the store keys it: a string id field is matched as text (`/members/7` finds "7"), an integer one
// as a number; an int64 past 2^53 is no id the store ever gives.
function recordId(resource: Resource, value: unknown): RecordId | undefined {
  // No array made: this is every request on an item.
  const type = resource.id?.schema.type as unknown;
  const numeric =
    type === 'integer' || type === 'number' || (Array.isArray(type) && (type.includes('integer') || type.includes('number')));
  if (numeric) {
    const number = typeof value === 'number' ? value : Number(value);
    return Number.isFinite(number) && typeof value !== 'bigint' ? number : undefined;
  }
  return typeof value === 'bigint' ? value.toString() : String(value);
}

function idOf(value: unknown): RecordId {
  return typeof value === 'number' || typeof value === 'string' ? value : String(value);
}

const parameterNames = new Map<string, readonly string[]>();

// Read once a path template: this is every request.
function pathParameterNames(path: string): readonly string[] {
  let names = parameterNames.get(path);
  if (names === undefined) {
    names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
    parameterNames.set(path, names);
  }
  return names;
}

function fillPath(template: string, values: readonly RecordId[]): string {
  if (values.length === 0) return template;
  let index = 0;
  return template.replace(/\{[^}]+\}/g, () => encodeURIComponent(String(values[index++])));
}

// Fields the server sets are never taken from a request (docs/resources.md): a PUT or PATCH keeps the stored ones.
function keepServerFields(resource: Resource, old: Readonly<Record<string, unknown>>, record: Record<string, unknown>) {
  for (const name of resource.serverFields) {
    if (old[name] === undefined) delete record[name];
    else record[name] = old[name];
  }
  return record;
}

// docs/reference/open-choices.md: an enum field the request schema offers (or the representation requires) that
// the request leaves out takes the schema's `default`, else the enum's first value (the Pet Store's `available`),
// so that every answer stays within the contract and a filter on it finds the record. Server-set fields and the id
// are the server's. Only what the request schema offers is stored: a client-sent id, or any field the schema does
// not name (unless it takes additionalProperties), is not, so the id is always the server's. Read once an operation.
function requestFields(resource: Resource, operation: Operation): RequestFields {
  const schema = operation.requestBody?.contents.find((media) => media.schema !== undefined)?.schema as RawSchema | undefined;
  const request = objectShape(schema);
  const members = [schema, ...(schema?.allOf ?? [])];
  const open = members.some((member) => member?.additionalProperties !== undefined && member.additionalProperties !== false);
  const shape = objectShape(resource.schema);
  const names = new Set([...Object.keys(request?.properties ?? {}), ...(shape?.required ?? [])]);
  const missing = new Map<string, unknown>();
  for (const name of names) {
    if (name === resource.id?.name || resource.serverFields.includes(name)) continue;
    const schemas = [request?.properties[name], shape?.properties[name]];
    const choices = schemas.map(enumOf).find((values) => values.length > 0) ?? [];
    if (choices.length === 0) continue;
    const given = schemas.map((one) => one?.default).find((value) => value !== undefined);
    missing.set(name, given ?? choices[0]);
  }
  return { offered: request === undefined || open ? undefined : new Set(Object.keys(request.properties)), missing };
}

function enumOf(schema: unknown): readonly unknown[] {
  const own = (schema as { enum?: unknown; allOf?: unknown[] } | undefined) ?? {};
  if (Array.isArray(own.enum)) return own.enum.filter((value) => value !== null);
  return Array.isArray(own.allOf) ? (own.allOf.map(enumOf).find((values) => values.length > 0) ?? []) : [];
}

function requiredOf(resource: Resource): readonly string[] {
  return [...(objectShape(resource.schema)?.required ?? [])];
}

const replies = new WeakMap<Operation, { readonly status: number; readonly empty: boolean }>();

// The operation's documented success status (the lowest 2xx it lists), else the kind's usual one; a success
// documented without a body (204, or a 200 with no content) answers none. Read once an operation.
function replyOf(operation: Operation, fallback: number): { readonly status: number; readonly empty: boolean } {
  let reply = replies.get(operation);
  if (reply === undefined) {
    const codes = operation.responses.map((r) => Number(r.code)).filter((code) => code >= 200 && code < 300);
    const status = codes.length > 0 ? Math.min(...codes) : fallback;
    const response = operation.responses.find((r) => r.code === String(status));
    reply = { status, empty: status === 204 || (response !== undefined && response.contents.length === 0) };
    replies.set(operation, reply);
  }
  return reply;
}

function answer(operation: Operation, json: string, fallback: number): MockResponse {
  const { status, empty } = replyOf(operation, fallback);
  return { status, body: empty ? '' : json };
}

const wrappers = new WeakMap<readonly string[], { readonly open: string; readonly close: string }>();

// What a list's records are wrapped in (`{"items":[...]}`), read once a resource.
function wrapperOf(pointer: readonly string[]): { readonly open: string; readonly close: string } {
  let wrapper = wrappers.get(pointer);
  if (wrapper === undefined) {
    wrapper = { open: pointer.map((name) => `{${JSON.stringify(name)}:`).join(''), close: '}'.repeat(pointer.length) };
    wrappers.set(pointer, wrapper);
  }
  return wrapper;
}

function listAnswer(status: number, parts: readonly string[], pointer: readonly string[]): MockResponse {
  const { open, close } = wrapperOf(pointer);
  let length = 0;
  for (const part of parts) length += part.length;
  if (length <= JOINED_UP_TO) return { status, body: `${open}[${parts.join(',')}]${close}` };
  return { status, body: '', chunks: listChunks(open, parts, close) };
}

function* listChunks(open: string, parts: readonly string[], close: string): Generator<string> {
  for (let i = 0; i < parts.length; i++) yield `${i === 0 ? `${open}[` : ','}${parts[i]}`;
  yield `${parts.length === 0 ? `${open}[` : ''}]${close}`;
}

function readRecord(json: string): Record<string, unknown> {
  return parseJson(json) as unknown as Record<string, unknown>;
}
