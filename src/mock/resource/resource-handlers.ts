import type { Contract } from '../../contract/load-contract.js';
import type { Operation } from '../../contract/operation.js';
import { inferResources } from '../../contract/resources/infer-resources.js';
import { makesRecords } from '../../contract/resources/resource-roles.js';
import type { Resource, ResourceOperationKind } from '../../contract/resources/resource.js';
import { parseJson } from '../../contract/lossless-json.js';
import { objectShape, type RawSchema } from '../../contract/resources/object-shape.js';
import { offeredFields } from '../../contract/resources/offered-fields.js';
import { ERROR_CODES, type ErrorCode, mockError, statusOf } from '../error-codes.js';
import type { Handler, HandlerContext, MockResponse } from '../handler.js';
import type { RequestInput } from '../connection/read-request.js';
import { fillServerFields, isNullable, missingValue, type RequestFields } from '../store/fill-server-fields.js';
import { setOwn } from '../../contract/set-own.js';
import { mergePatch } from '../store/merge-patch.js';
import { readStoreQuery } from '../store/read-store-query.js';
import type { RecordId, RecordStore } from '../store/record-store.js';
import { type ResourceStores, scopeOf } from '../store/resource-stores.js';
import { countHeader } from '../../contract/count-header.js';
import { ifMatchCheck, ifNoneMatchCheck } from '../conditional/if-match.js';
import { cursorPage } from './cursor-page.js';
import { listMembers, type RecordWrapper, recordWrapper } from './envelope-answers.js';
import { type RecordPointer, recordAt, schemaAt } from '../../contract/resources/envelope.js';

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
 * The resources the generic handlers serve: stateful in the model, with a create or a PUT that creates (rule 11; a
 * resource the API can only read would answer an empty list for ever, where the contract's examples show data: it
 * stays with Prism, the mock's choice in docs/reference/open-choices.md). The shipped Pet Store's pets are one.
 */
export function servedResources(contract: Contract): Resource[] {
  return inferResources(contract).resources.filter(
    (resource) => resource.stateless === undefined && resource.id !== undefined && makesRecords(resource),
  );
}

const WRITES: ReadonlySet<ResourceOperationKind> = new Set(['create', 'replace', 'merge-patch', 'delete']);

type MakeHandler = (resource: Resource, operation: Operation, contract: Contract) => Handler;

// Up to this many characters a list is one string, sent in one write (every list of ordinary records); past it the
// records are streamed, so a page of 100 records with 1 MB names is never copied into a 100 MB string per request.
const JOINED_UP_TO = 64 * 1024;

const KINDS: Readonly<Record<ResourceOperationKind, MakeHandler>> = {
  create: (resource, operation) => {
    const plan = planOf(resource, operation, 'collection', 201);
    const request = requestFields(resource, operation);
    return (input, context) => {
      const { store, parents } = locate(resource, plan, input, context);
      const record = fillServerFields(resource, sentRecord(plan, input) ?? {}, new Date(), request);
      const { id, json } = store.createRecord(record, scopeOf(parents));
      const location = `${context.basePath}${itemPathOf(resource, parents, id)}`;
      // A literal, not `{ ...answer(plan, json), headers }`: that spread cost a microsecond a create, a tenth of the handler.
      return { status: plan.status, body: answerText(plan, json), headers: { Location: location }, record: json };
    };
  },
  list: (resource, operation) => {
    const plan = planOf(resource, operation, 'collection', 200);
    const next = resource.list?.next;
    const cursor = resource.list?.paging.cursor;
    const members = listMembers(operation, resource.listPointer, cursor === undefined ? undefined : next);
    const counted = countHeader(operation);
    return (input, context) => {
      const { store, parents } = locate(resource, plan, input, context);
      const query = readStoreQuery(resource, operation, input.query, scopeOf(parents));
      // Every record the query matches, counted only where the page has a member or a header for it.
      const total = () => store.listJson({ ...query, limit: Number.MAX_SAFE_INTEGER, offset: 0, before: undefined }).length;
      let answered: MockResponse;
      if (next === undefined || cursor === undefined)
        answered = listAnswer(plan.status, store.listJson(query), resource.listPointer, members?.(undefined, total));
      else {
        const nextUrl = (value: string) =>
          `${context.basePath}${fillPath(resource.collectionPath, parents)}?${queryText({ ...input.query, [cursor]: value })}`;
        const page = cursorPage(store, query, next, nextUrl);
        answered = listAnswer(plan.status, page.parts, resource.listPointer, members?.(page.cursor, total) ?? page.members);
        if (page.headers) answered = { ...answered, headers: page.headers };
      }
      // The count header the list documents (X-Total-Count, src/contract/count-header.ts).
      return counted === undefined ? answered : { ...answered, headers: { ...answered.headers, [counted]: String(total()) } };
    };
  },
  get: (resource, operation) => {
    const plan = planOf(resource, operation, 'item', 200);
    return (input, context) => answer(plan, found(resource, plan, input, context).json);
  },
  replace: (resource, operation) => {
    const upsert = placeOf(resource, operation)?.creates === true;
    const own = planOf(resource, operation, 'item', 200);
    const request = requestFields(resource, operation);
    const kept = keptFields(resource);
    const precondition = ifMatchCheck(operation);
    const absent = ifNoneMatchCheck(operation);
    const creates = upsert ? createdAtPath(resource, operation, own, request, precondition !== undefined) : undefined;
    // A PUT that creates answers a replace with its lowest success but 201, which says a record was made (201 still
    // where it documents no other).
    const plan = upsert ? { ...own, ...replyOf(operation, own.status, 201) } : own;
    return (input, context) => {
      if (creates) {
        const made = creates(input, context);
        if (made) return made;
      }
      const { store, id, scope, json } = found(resource, plan, input, context);
      precondition?.(input.ifMatch, json);
      absent?.(input.ifNoneMatch, json);
      const body = sentRecord(plan, input) ?? {};
      const now = new Date();
      const fields = fillServerFields(resource, body, now, request);
      // The stored record is read back only when it has server-set fields to keep (the store sets the id).
      const old = kept.length > 0 ? readRecord(json) : undefined;
      const record = old ? keepServerFields(resource, kept, old, fields, now) : fields;
      return answer(plan, store.replace(id, record, scope, old) as string);
    };
  },
  'merge-patch': (resource, operation) => {
    const plan = planOf(resource, operation, 'item', 200);
    const required = [...(objectShape(resource.schema)?.required ?? [])];
    const kept = keptFields(resource);
    const precondition = ifMatchCheck(operation);
    const absent = ifNoneMatchCheck(operation);
    return (input, context) => {
      const { store, id, scope, json } = found(resource, plan, input, context);
      precondition?.(input.ifMatch, json);
      absent?.(input.ifNoneMatch, json);
      const old = readRecord(json);
      // A PATCH whose contract lets the body be left out, sent without one, changes nothing.
      const sent = sentRecord(plan, input) ?? {};
      const patched = mergePatch(old, sent) as Record<string, unknown>;
      if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) {
        throw mockError('validation_failed', 'body: a merge patch of a record must be a JSON object (RFC 7396)');
      }
      const now = new Date();
      const record = keepServerFields(resource, kept, old, patched, now);
      const patch = sent as Readonly<Record<string, unknown>>;
      for (const name of required) {
        if (record[name] !== undefined) continue;
        // RFC 7396 null removes a member: a required one can be removed only to null, where it may be null. A
        // required field the patch does not touch, missing from a record stored before, is filled as a create would.
        if (patch[name] !== null) setOwn(record, name, missingValue(resource, name, now));
        else if (isNullable(resource, name)) setOwn(record, name, null);
        else throw mockError('validation_failed', `body.${name}: a required field cannot be removed`);
      }
      return answer(plan, store.replace(id, record, scope, old) as string);
    };
  },
  delete: (resource, operation) => {
    const plan = planOf(resource, operation, 'item', 204);
    const precondition = ifMatchCheck(operation);
    const absent = ifNoneMatchCheck(operation);
    return (input, context) => {
      const { id, parents, json } = found(resource, plan, input, context);
      precondition?.(input.ifMatch, json);
      absent?.(input.ifNoneMatch, json);
      context.resources.remove(resource.key, id, parents);
      return answer(plan, json);
    };
  },
};

/**
 * A PUT that creates (rule 11): where its path names no record, the record is made there, the path's id in its id
 * field whatever the body says (RFC 9110 §9.3.4: a PUT sets the state of the resource its URI names), and answered
 * 201 where documented (§9.3.4: a PUT that creates informs the client by 201), else the PUT's own success status.
 * Undefined where the record exists: the PUT then replaces it. An If-Match the PUT enforces never matches here.
 */
function createdAtPath(
  resource: Resource,
  operation: Operation,
  plan: OperationPlan,
  request: RequestFields,
  enforcesIfMatch: boolean,
) {
  const created = operation.responses.some((r) => r.code === '201') ? { ...plan, ...replyAt(operation, 201) } : plan;
  const idField = (resource.id as NonNullable<Resource['id']>).name;
  return (input: RequestInput, context: HandlerContext): MockResponse | undefined => {
    const { store, parents } = locate(resource, plan, input, context);
    const value = input.path[plan.item as string];
    const id = plan.toId(value);
    if (id === undefined) throw notFound(resource.key, value, plan.notFound);
    const scope = scopeOf(parents);
    if (store.getJson(id, scope) !== undefined) return undefined;
    // RFC 9110 §13.1.1: If-Match is false where the target has no current representation, `*` included.
    if (enforcesIfMatch && input.ifMatch !== undefined) throw mockError('precondition_failed');
    const fields = fillServerFields(resource, sentRecord(plan, input) ?? {}, new Date(), request);
    const { json } = store.createRecord({ ...fields, [idField]: id }, scope);
    return answer(created, json);
  };
}

/** What a handler reads from its operation, worked out once when the handler is made, never per request. */
interface OperationPlan {
  /** The path parameters naming the parents, outermost first. */
  readonly parents: readonly string[];
  /** The path parameter naming the record, on an item path. */
  readonly item: string | undefined;
  readonly toId: (value: unknown) => RecordId | undefined;
  readonly status: number;
  readonly empty: boolean;
  readonly notFound: ErrorCode;
  /** Where the request body carries the record (docs/reference/resources.md rule 10). */
  readonly sentAt: RecordPointer;
  /** What the stored record is answered inside. */
  readonly wrapper: RecordWrapper;
}

function planOf(resource: Resource, operation: Operation, at: 'collection' | 'item', fallback: number): OperationPlan {
  const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
  return {
    parents: at === 'item' ? names.slice(0, -1) : names,
    item: at === 'item' ? names.at(-1) : undefined,
    toId: idReader(resource),
    ...replyOf(operation, fallback),
    notFound: notFoundCode(operation),
    sentAt: placeOf(resource, operation)?.requestRecord ?? [],
    wrapper: recordWrapper(operation, placeOf(resource, operation)?.answerRecord ?? []),
  };
}

function placeOf(resource: Resource, operation: Operation) {
  return resource.operations.find((op) => op.operationId === operation.operationId);
}

// The record a write sends: inside the envelope its request schema has, where the body holds one there.
function sentRecord(plan: OperationPlan, input: RequestInput): Record<string, unknown> | undefined {
  const inner = plan.sentAt.length > 0 ? recordAt(input.body, plan.sentAt) : undefined;
  return (inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? inner : input.body) as
    | Record<string, unknown>
    | undefined;
}

interface Located {
  readonly store: RecordStore;
  readonly parents: readonly RecordId[];
}

const NO_PARENTS: readonly RecordId[] = [];

// The resource's store and the parents' ids the path names, outermost first; a parent that does not exist is the
// documented 404, so nothing is ever created under, or listed from, a parent that is not there.
function locate(resource: Resource, plan: OperationPlan, input: RequestInput, context: HandlerContext): Located {
  // Served resources are stateful with an id, so they always have a store.
  const store = context.resources.storeFor(resource) as RecordStore;
  if (plan.parents.length === 0) return { store, parents: NO_PARENTS };
  const parents = plan.parents.map((name) => idOf(input.path[name]));
  checkParents(resource, parents, context.resources);
  return { store, parents };
}

export function checkParents(resource: Pick<Resource, 'parent'>, parents: readonly RecordId[], resources: ResourceStores): void {
  let key = resource.parent;
  for (let depth = parents.length - 1; depth >= 0 && key !== undefined; depth--) {
    const parent = resources.store(key);
    if (!parent) return;
    if (parent.getJson(parents[depth] as RecordId, scopeOf(parents.slice(0, depth))) === undefined) {
      throw notFound(key, parents[depth] as RecordId);
    }
    key = resources.parentOf(key);
  }
}

function found(resource: Resource, plan: OperationPlan, input: RequestInput, context: HandlerContext) {
  const { store, parents } = locate(resource, plan, input, context);
  const value = input.path[plan.item as string];
  const id = plan.toId(value);
  const scope = scopeOf(parents);
  const json = id === undefined ? undefined : store.getJson(id, scope);
  if (json === undefined || id === undefined) throw notFound(resource.key, value, plan.notFound);
  return { store, parents, id, scope, json };
}

function notFound(key: string, id: unknown, code: ErrorCode = 'record_not_found') {
  return mockError(code, `no record of ${key} has id ${String(id).slice(0, 80)}`);
}

// The operation's documented 404 in its own code, when the contract's example gives one the mock answers 404 with
// (the Pet Store's `pet_not_found`); else record_not_found.
function notFoundCode(operation: Operation): ErrorCode {
  const media = operation.responses.find((r) => r.code === '404')?.contents.find((c) => c.example !== undefined);
  const named = (media?.example as { code?: unknown } | undefined)?.code;
  return typeof named === 'string' && Object.hasOwn(ERROR_CODES, named) && statusOf(named) === 404
    ? (named as ErrorCode)
    : 'record_not_found';
}

// A path value as the store keys it: a string id field is matched as text (`/members/7` finds "7"), an integer one
// as a number; an int64 past 2^53 is no id the store ever gives.
export function idReader(resource: Resource): (value: unknown) => RecordId | undefined {
  const type = resource.id?.schema.type as unknown;
  const numeric =
    type === 'integer' || type === 'number' || (Array.isArray(type) && (type.includes('integer') || type.includes('number')));
  if (numeric) {
    return (value) => {
      const number = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(number) && typeof value !== 'bigint' ? number : undefined;
    };
  }
  return (value) => (typeof value === 'bigint' ? value.toString() : String(value));
}

function idOf(value: unknown): RecordId {
  return typeof value === 'number' || typeof value === 'string' ? value : String(value);
}

// The list's own query with the next cursor: each value as the request sent it, arrays as repeated names.
function queryText(query: Readonly<Record<string, unknown>>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) search.append(name, String(one));
  }
  return search.toString();
}

// A created record's address: its item path where the contract has one (`/snippets/{id}/` keeps its slash), else
// the collection path and the id.
function itemPathOf(resource: Resource, parents: readonly RecordId[], id: RecordId): string {
  if (resource.itemPath !== undefined) return fillPath(resource.itemPath, [...parents, id]);
  return `${fillPath(resource.collectionPath, parents).replace(/\/$/, '')}/${encodeURIComponent(String(id))}`;
}

function fillPath(template: string, values: readonly RecordId[]): string {
  if (values.length === 0) return template;
  const parts = templateParts(template);
  let path = parts[0] as string;
  for (let i = 1; i < parts.length; i++) path += encodeURIComponent(String(values[i - 1])) + (parts[i] as string);
  return path;
}

// A template's text around its parameters, split once: a replace with a callback on every create's Location was a
// few microseconds of the create's time under load.
const splitTemplates = new Map<string, readonly string[]>();

function templateParts(template: string): readonly string[] {
  let parts = splitTemplates.get(template);
  if (parts === undefined) {
    parts = template.split(/\{[^}]+\}/);
    splitTemplates.set(template, parts);
  }
  return parts;
}

// Fields the server sets are never taken from a request (docs/resources.md): a PUT or PATCH keeps the stored ones,
// and fills one the stored record lacks as a create would.
function keepServerFields(
  resource: Resource,
  kept: readonly string[],
  old: Readonly<Record<string, unknown>>,
  record: Record<string, unknown>,
  now: Date,
) {
  for (const name of kept) {
    const value = old[name] !== undefined ? old[name] : missingValue(resource, name, now);
    if (value === undefined) delete record[name];
    else record[name] = value;
  }
  return record;
}

// The server-set fields a PUT or PATCH keeps, but the id: the store puts the record's own id back in any case.
function keptFields(resource: Resource): readonly string[] {
  return resource.serverFields.filter((name) => name !== resource.id?.name);
}

// docs/reference/open-choices.md: a field the request schema offers (or the representation requires) that the
// request leaves out takes the schema's `default`, else, for an enum, its first value (the Pet Store's `available`),
// so that every answer stays within the contract and a filter on it finds the record. Server-set fields and the id
// are the server's. Only what the request schema offers is stored: a client-sent id, or any field the schema does
// not name (unless it takes additionalProperties), is not, so the id is always the server's. Read once an operation.
function requestFields(resource: Resource, operation: Operation): RequestFields {
  const body = operation.requestBody?.contents.find((media) => media.schema !== undefined)?.schema as RawSchema | undefined;
  const schema = schemaAt(body, placeOf(resource, operation)?.requestRecord ?? []);
  const request = objectShape(schema);
  const shape = objectShape(resource.schema);
  const names = new Set([...Object.keys(request?.properties ?? {}), ...(shape?.required ?? [])]);
  const missing = new Map<string, unknown>();
  for (const name of names) {
    if (name === resource.id?.name || resource.serverFields.includes(name)) continue;
    const schemas = [request?.properties[name], shape?.properties[name]];
    const given = schemas.map((one) => one?.default).find((value) => value !== undefined);
    const choices = schemas.map(enumOf).find((values) => values.length > 0) ?? [];
    if (given !== undefined || choices.length > 0) missing.set(name, given ?? choices[0]);
  }
  // OpenAPI: a writeOnly property SHOULD NOT be sent in a response; the mock answers what it stores, so it keeps none.
  const writeOnly = Object.entries(request?.properties ?? {}).filter(([, property]) => property.writeOnly === true);
  const hidden = new Set([...writeOnly.map(([name]) => name), ...(resource.schema?.writeOnlyProperties ?? [])]);
  return { offered: offeredFields(schema), missing, hidden };
}

function enumOf(schema: unknown): readonly unknown[] {
  const own = (schema as { enum?: unknown; allOf?: unknown[] } | undefined) ?? {};
  if (Array.isArray(own.enum)) return own.enum.filter((value) => value !== null);
  return Array.isArray(own.allOf) ? (own.allOf.map(enumOf).find((values) => values.length > 0) ?? []) : [];
}

// A status the operation documents, and whether it answers a body there.
function replyAt(operation: Operation, status: number): { readonly status: number; readonly empty: boolean } {
  const response = operation.responses.find((r) => r.code === String(status));
  return { status, empty: status === 204 || (response !== undefined && response.contents.length === 0) };
}

// The operation's documented success status (the lowest 2xx it lists), else the kind's usual one; a success
// documented without a body (204, or a 200 with no content) answers none.
export function replyOf(
  operation: Operation,
  fallback: number,
  not?: number,
): { readonly status: number; readonly empty: boolean } {
  const codes = operation.responses.map((r) => Number(r.code)).filter((code) => code >= 200 && code < 300 && code !== not);
  return replyAt(operation, codes.length > 0 ? Math.min(...codes) : fallback);
}

// The record's JSON goes with the answer: an ETag the response documents is the record's tag (conditional/).
function answer(plan: OperationPlan, json: string): MockResponse {
  return { status: plan.status, body: answerText(plan, json), record: json };
}

function answerText(plan: OperationPlan, json: string): string {
  if (plan.empty) return '';
  return plan.wrapper.open === '' ? json : `${plan.wrapper.open}${json}${plan.wrapper.close}`;
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

// `members` close the outermost object that wraps the records (`,"next":"20"` of `{"items":[...],"next":"20"}`).
function listAnswer(status: number, parts: readonly string[], pointer: readonly string[], members = ''): MockResponse {
  const wrapper = wrapperOf(pointer);
  const { open } = wrapper;
  const close = members === '' ? wrapper.close : `${wrapper.close.slice(0, -1)}${members}}`;
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
