import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadContract } from '../../src/contract/load-contract.js';
import type { JsonSchema, Operation } from '../../src/contract/operation.js';
import type { KeyPlacement } from '../../src/contract/key-placement.js';
import { inferResources } from '../../src/contract/resources/infer-resources.js';
import { referencedResource } from '../../src/contract/resources/referenced-resource.js';
import { envelopeMembers, recordAt, wrapRecord } from '../../src/contract/resources/envelope.js';
import { answerSchema } from '../../src/contract/resources/representation.js';
import { sampleValue } from '../../src/conformance/cases/generate/sample-value.js';
import type { Resource, ResourceOperationKind } from '../../src/contract/resources/resource.js';
import { type ConditionalBreakage, crudConditional } from './crud-conditional.js';

/**
 * One stateful way a server can be wrong, each alone (issue 22's broken servers): the runner's effect checks must
 * fail each, and pass the server with none. 'taken-id-replaces' is no breakage but a choice the contract leaves
 * open (a create of a taken client-named id replaces the record): it must pass. So is 'checks-references': a create
 * whose field refers to another resource's record (an order's petId) that does not exist is refused with 404,
 * a status createOrder does not document. And 'unique-emails': a write naming an email (format email) another record
 * of the resource has is refused with 409, as a contract may document (test/contracts/accounts). A PUT that creates
 * (rule 11) makes the record at its path's id and answers 201 where documented: 'put-stores-nothing' answers 201
 * and keeps nothing, 'put-duplicates' stores a second PUT at a taken id as another record, 'put-ignores-path-id'
 * makes the record at an id of its own. 'put-creates-200' is no breakage but a choice: a PUT that makes a record
 * answers 200 where 201 is documented too (a store of blind writes): it is observed, never failed. On a tree
 * (test/contracts/category-tree): 'deep-wrong-type' answers a get whose first text field of a child's child is a
 * number, 'replace-drops-children' keeps a replace without its fields that hold lists of objects.
 */
export type CrudBreakage =
  | 'update-ignored'
  | 'delete-does-nothing'
  | 'deleted-still-listed'
  | 'patch-replaces'
  | 'put-changes-id'
  | 'nested-any-parent'
  | 'second-delete-500'
  | 'refused-put-stored'
  | 'delete-before-auth'
  | 'orphan-create'
  | 'update-answers-old'
  | 'location-other-id'
  | 'delete-answers-200'
  | 'created-later'
  | 'ignores-offset'
  | 'ignores-cursor'
  | 'patch-keeps-null'
  | 'put-merges'
  | 'taken-id-stored-twice'
  | 'refused-create-overwrites'
  | 'client-id-replaced'
  | 'ignores-limit'
  | 'taken-id-replaces'
  | 'create-stored-twice'
  | 'offset-skips-one'
  | 'page-skips-one'
  | 'ignores-text-filter'
  | 'ignores-enum-filter'
  | 'ignores-exact-filter'
  | 'children-outlive-parent'
  | 'nested-list-any-parent'
  | 'put-accepts-partial'
  | 'checks-references'
  | 'no-auth'
  | 'oauth-open'
  | 'key-anywhere'
  | 'key-prefix-taken'
  | 'unique-emails'
  | 'delete-matches-by-value'
  | 'update-touches-others'
  | 'patch-touches-others'
  | 'put-stores-nothing'
  | 'put-duplicates'
  | 'put-ignores-path-id'
  | 'put-creates-200'
  | 'deep-wrong-type'
  | 'replace-drops-children'
  | ConditionalBreakage;

export interface CrudServer {
  readonly url: string;
  close(): Promise<void>;
}

type Row = Record<string, unknown>;

/**
 * A small, correct, in-memory CRUD server for any contract, written from the resource model alone and apart from
 * the mock's code: create, list (filters, page size, offset/page), get, replace, merge-patch (RFC 7396), delete,
 * records scoped to their parents, bearer auth with one key. Other operations answer an empty object of their
 * lowest success status. `breakage` makes it wrong in exactly one stateful way.
 */
export async function startCrudServer(contractFile: string, key: string, breakage?: CrudBreakage): Promise<CrudServer> {
  const contract = await loadContract(contractFile);
  const model = inferResources(contract);
  const roles = new Map<string, { resource: Resource; kind: ResourceOperationKind }>();
  for (const resource of model.resources) {
    if (resource.stateless || !resource.id) continue;
    for (const op of resource.operations) roles.set(op.operationId, { resource, kind: op.kind });
  }
  const base = (contract.basePaths[0] ?? '').replace(/\/+$/, '');
  // store key + parent ids → id → record; a deleted record's ids stay in `ghosts` for 'deleted-still-listed'.
  const stores = new Map<string, Map<string, Row>>();
  const ghosts = new Map<string, Row[]>();
  // 'created-later': id → when its get first finds it.
  const hidden = new Map<string, number>();
  // Checking references, ids start far from the contract's examples (petId: 1): a reference to the example would
  // otherwise find the run's first record by chance.
  let counter = breakage === 'checks-references' ? 1_000_000 : 0;
  const orphans = new Set<string>();
  const conditional = crudConditional(breakage);

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        send(res, 500, { code: 'bug', message: String(error), status: 500 });
      }
    });
  });

  // A foreign key, checked: a field that names another top-level resource's item parameter holds an id it has.
  function missingReference(resource: Resource, body: Row): boolean {
    return Object.entries(body).some(([field, value]) => {
      const referenced = referencedResource(model, field, resource);
      return referenced?.parent === undefined && referenced !== undefined && !storeFor(referenced, []).has(String(value));
    });
  }

  function handle(req: IncomingMessage, res: ServerResponse, text: string) {
    const url = new URL(req.url ?? '/', 'http://x');
    if (!url.pathname.startsWith(`${base}/`) && url.pathname !== base) return send(res, 404, problem(undefined, 404));
    const match = contract.findOperation(req.method ?? 'GET', url.pathname.slice(base.length) || '/');
    if (match.kind === 'method-not-allowed') {
      res.setHeader('allow', match.allowed.join(', '));
      return send(res, 405, problem(undefined, 405));
    }
    if (match.kind !== 'found') return send(res, 404, problem(undefined, 404));
    const operation = match.operation;
    if (operation.auth !== 'none' && !authenticated(req, url, operation)) {
      if (breakage === 'delete-before-auth' && roles.get(operation.operationId)?.kind === 'delete') {
        const values = pathValues(operation, match.pathParams);
        storeFor(roles.get(operation.operationId)?.resource as Resource, values.slice(0, -1)).delete(
          values[values.length - 1] as string,
        );
      }
      // RFC 9110 §15.5.2: a challenge names an HTTP authentication scheme; an apiKey scheme is none.
      if (operation.key?.scheme !== 'apiKey')
        res.setHeader('www-authenticate', operation.key?.scheme === 'basic' ? 'Basic' : 'Bearer');
      return send(res, 401, problem(operation, 401));
    }
    const role = roles.get(operation.operationId);
    // A required cookie, read here without the mock's code.
    for (const cookie of operation.parameters.filter((p) => p.in === 'cookie' && p.required)) {
      const pair = (req.headers.cookie ?? '').split(/;\s*/).find((one) => one.startsWith(`${cookie.name}=`));
      if (
        pair === undefined ||
        !(cookie.schema.enum ?? [pair.slice(cookie.name.length + 1)]).includes(pair.slice(cookie.name.length + 1))
      )
        return send(res, 400, problem(operation, 400));
    }
    if (!role) {
      // An operation that keeps nothing still refuses a body its schema refuses (where it documents a 400).
      const validate = operation.requestBody?.contents[0]?.validate;
      const refusesBody = validate && operation.responses.some((r) => r.code === '400');
      if (refusesBody && !validJson(text, validate)) return send(res, 400, problem(operation, 400));
      return send(res, lowestSuccess(operation), answerOf(operation));
    }
    // A required precondition (If-Match): none is 428 (RFC 6585 §3); what it names is judged against the record.
    for (const header of operation.parameters.filter((p) => p.in === 'header' && p.required)) {
      if (req.headers[header.name] === undefined) return send(res, 428, problem(operation, 428));
    }
    const values = pathValues(operation, match.pathParams);
    const { resource, kind } = role;
    const idField = (resource.id as NonNullable<Resource['id']>).name;
    const parents = kind === 'create' || kind === 'list' ? values : values.slice(0, -1);
    const orphanTaken = breakage === 'orphan-create' && kind === 'create';
    if (!orphanTaken && !parentExists(resource, parents)) return send(res, 404, problem(operation, 404));
    // The query is judged once the parent is found: a list under a missing parent is a 404 whatever it asks.
    if (operation.responses.some((r) => r.code === '400') && !queryValid(operation, url.searchParams))
      return send(res, 400, problem(operation, 400));
    const store = storeFor(resource, parents);
    const id = values[values.length - 1] as string;
    // docs/reference/resources.md rule 10: where the contract wraps the record, it is read from and answered in its envelope.
    const place = resource.operations.find((op) => op.operationId === operation.operationId);
    const sentAt = place?.requestRecord ?? [];
    const answeredAt = place?.answerRecord ?? [];
    const out = (record: unknown) =>
      record === undefined ? undefined : wrapRecord(record, answeredAt, envelopeMembers(answerSchema(operation), answeredAt));
    let body: unknown;
    if (operation.requestBody) {
      try {
        body = JSON.parse(text);
      } catch {
        return send(res, 400, problem(operation, 400));
      }
      const media = operation.requestBody.contents[0];
      const partial = breakage === 'put-accepts-partial' && kind === 'replace' && typeof body === 'object' && body !== null;
      if (partial) {
        const old = store.get(id) ?? {};
        const missing = (resource.schema?.required ?? []).filter((name) => !(name in (body as Row)));
        body = { ...Object.fromEntries(missing.map((name) => [name, old[name]])), ...(body as Row) };
      }
      if (media?.validate && refused(kind, body, media.validate, sentAt)) {
        if (breakage === 'refused-put-stored' && kind === 'replace' && store.has(id))
          store.set(id, { ...(body as Row), [idField]: store.get(id)?.[idField] });
        return send(res, 400, problem(operation, 400));
      }
      body = sentAt.length > 0 ? recordAt(body, sentAt) : body;
    }
    if (breakage === 'checks-references' && kind === 'create' && missingReference(resource, body as Row))
      return send(res, 404, problem(operation, 404));
    if (breakage === 'unique-emails' && emailTaken(resource, kind === 'create' ? undefined : id, body))
      return send(res, 409, problem(operation, 409));
    switch (kind) {
      case 'create': {
        const given = (body as Row)[idField];
        const named = given !== undefined && !resource.serverFields.includes(idField) && breakage !== 'client-id-replaced';
        const newId = named ? given : nextId(resource.id?.schema);
        const record = complete(resource, { ...(body as Row), [idField]: newId }, undefined);
        if (store.has(String(newId))) {
          if (breakage === 'taken-id-stored-twice') store.set(`${String(newId)} again ${++counter}`, record);
          else if (breakage === 'refused-create-overwrites' || breakage === 'taken-id-replaces') store.set(String(newId), record);
          return breakage === 'taken-id-stored-twice' || breakage === 'taken-id-replaces'
            ? send(res, lowestSuccess(operation), out(record))
            : send(res, 400, problem(operation, 400));
        }
        store.set(String(newId), record);
        if (breakage === 'create-stored-twice') store.set(`${String(newId)} copy`, record);
        if (breakage === 'created-later') hidden.set(String(newId), Date.now() + 1500);
        if (operation.responses.find((r) => r.code === '201')?.headers.some((h) => h.name.toLowerCase() === 'location')) {
          const named = breakage === 'location-other-id' ? nextId(resource.id?.schema) : newId;
          res.setHeader('location', `${url.pathname}/${encodeURIComponent(String(named))}`);
        }
        // A create that documents no answer body names the record by its Location alone.
        return send(res, lowestSuccess(operation), answerSchema(operation) ? out(record) : undefined);
      }
      case 'list': {
        let rows = breakage === 'nested-list-any-parent' && parents.length > 0 ? allOf(resource) : [...store.values()];
        if (breakage === 'deleted-still-listed') rows = [...rows, ...(ghosts.get(storeName(resource, parents)) ?? [])];
        for (const { parameter, field } of resource.list?.filters ?? []) {
          const wanted = url.searchParams.get(parameter);
          const free = resource.schema?.properties?.[field]?.enum === undefined;
          if (breakage === 'ignores-text-filter' && free) continue;
          if (breakage === 'ignores-enum-filter' && !free) continue;
          const property = resource.schema?.properties?.[field];
          const exact = free && (property?.type !== 'string' || property.format !== undefined);
          if (breakage === 'ignores-exact-filter' && exact) continue;
          if (wanted !== null) rows = rows.filter((row) => String(row[field]) === wanted);
        }
        const paging = resource.list?.paging ?? {};
        const limit =
          paging.limit && breakage !== 'ignores-limit'
            ? Number(url.searchParams.get(paging.limit) ?? defaultOf(operation, paging.limit) ?? 1000)
            : 1000;
        const given = paging.cursor ? url.searchParams.get(paging.cursor) : null;
        const offset =
          breakage === 'ignores-offset'
            ? 0
            : paging.offset
              ? Number(url.searchParams.get(paging.offset) ?? 0) +
                (breakage === 'offset-skips-one' &&
                url.searchParams.has(paging.offset) &&
                url.searchParams.get(paging.offset) !== '0'
                  ? 1
                  : 0)
              : paging.page
                ? (Number(url.searchParams.get(paging.page) ?? 1) - (breakage === 'page-skips-one' ? 0 : 1)) * limit
                : given !== null && breakage !== 'ignores-cursor'
                  ? Number(Buffer.from(given, 'base64url').toString().replace('after:', ''))
                  : 0;
        const all = rows.reverse();
        const page = all.slice(offset, offset + limit);
        conditional.count(operation, res, { matched: all.length, all: store.size, page: page.length });
        // An opaque cursor of its own (`after:<offset>`, base64url), given while records lie past the page.
        const next = offset + limit < all.length ? Buffer.from(`after:${offset + limit}`).toString('base64url') : undefined;
        const where = resource.list?.next;
        const around = envelopeMembers(answerSchema(operation), resource.listPointer.slice(0, 1))[0] ?? {};
        const body = resource.listPointer.length > 0 ? { ...around, ...(wrap(resource.listPointer, page) as Row) } : page;
        // A page without a next one says so by null where the envelope requires the member (`meta.next_cursor`).
        const ended = where?.in === 'body' && next === undefined && recordAt(around, where.pointer) !== undefined;
        if (where?.in === 'body' && (next !== undefined || ended)) setAt(body as Row, where.pointer, next ?? null);
        if (where?.in === 'link' && next !== undefined && paging.cursor) {
          url.searchParams.set(paging.cursor, next);
          res.setHeader('Link', `<${url.pathname}${url.search}>; rel="next"`);
        }
        return send(res, lowestSuccess(operation), body);
      }
      case 'get': {
        const record = breakage === 'nested-any-parent' ? anyParent(resource, id) : store.get(id);
        if ((hidden.get(id) ?? 0) > Date.now()) return send(res, 404, problem(operation, 404));
        if (!record) return send(res, 404, problem(operation, 404));
        if (conditional.notModified(operation, req, res, out(record) as Row, url.pathname)) return;
        conditional.tag(operation, res, 200, out(record) as Row, url.pathname);
        return send(res, 200, out(breakage === 'deep-wrong-type' ? deepWrongType(record) : record));
      }
      case 'replace': {
        const old = store.get(id);
        if (!old && place?.creates) return putCreates(res, operation, store, resource, id, body as Row, out);
        if (!old) return send(res, 404, problem(operation, 404));
        if (conditional.preconditionFails(operation, req, out(old) as Row)) return send(res, 412, problem(operation, 412));
        if (breakage === 'put-duplicates' && place?.creates) {
          const record = complete(resource, { ...(body as Row), [idField]: old[idField] }, old);
          store.set(`${id} again ${++counter}`, record);
          return send(res, lowestSuccess(operation), out(record));
        }
        const newId = breakage === 'put-changes-id' ? nextId(resource.id?.schema) : old[idField];
        const sent = breakage === 'replace-drops-children' ? withoutNestedLists(body as Row) : (body as Row);
        const written = breakage === 'put-merges' ? { ...old, ...sent } : sent;
        const record = complete(resource, { ...written, [idField]: newId }, old);
        if (breakage !== 'update-ignored') {
          store.delete(id);
          store.set(String(newId), record);
        }
        // Every other record takes the body's fields too (an UPDATE without its WHERE).
        if (breakage === 'update-touches-others')
          for (const [key, row] of store)
            if (key !== String(newId)) store.set(key, { ...row, ...(body as Row), [idField]: row[idField] });
        conditional.tag(operation, res, lowestSuccess(operation), out(record) as Row, url.pathname);
        return send(res, lowestSuccess(operation), out(breakage === 'update-answers-old' ? old : record));
      }
      case 'merge-patch': {
        const old = store.get(id);
        if (!old) return send(res, 404, problem(operation, 404));
        if (conditional.preconditionFails(operation, req, out(old) as Row)) return send(res, 412, problem(operation, 412));
        const merged =
          breakage === 'patch-replaces'
            ? { ...(body as Row), [idField]: old[idField] }
            : mergePatch(old, breakage === 'patch-keeps-null' ? (withoutNulls(body) as Row) : (body as Row));
        const record = complete(resource, { ...merged, [idField]: old[idField] }, old);
        store.set(id, record);
        if (breakage === 'patch-touches-others')
          for (const [key, row] of store) if (key !== id) store.set(key, mergePatch(row, body as Row) as Row);
        conditional.tag(operation, res, lowestSuccess(operation), out(record) as Row, url.pathname);
        return send(res, lowestSuccess(operation), out(breakage === 'update-answers-old' ? old : record));
      }
      case 'delete': {
        const old = store.get(id);
        if (!old) return send(res, breakage === 'second-delete-500' ? 500 : 404, problem(operation, 404));
        if (conditional.preconditionFails(operation, req, out(old) as Row)) return send(res, 412, problem(operation, 412));
        if (breakage !== 'delete-does-nothing') {
          store.delete(id);
          // A DELETE whose WHERE names a field that is no key: every record with the same first text value goes.
          if (breakage === 'delete-matches-by-value') {
            const field = Object.keys(old).find((name) => name !== idField && typeof old[name] === 'string');
            for (const [key, row] of store) if (field !== undefined && row[field] === old[field]) store.delete(key);
          }
          if (breakage === 'children-outlive-parent') orphans.add(id);
          else removeChildren(resource, [...parents, id]);
          if (breakage === 'deleted-still-listed')
            ghosts.set(storeName(resource, parents), [...(ghosts.get(storeName(resource, parents)) ?? []), old]);
        }
        return breakage === 'delete-answers-200' ? send(res, 200, old) : send(res, lowestSuccess(operation), undefined);
      }
    }
  }

  // rule 11: the record at the path's id, whatever the body says (RFC 9110 §9.3.4), answered 201 where documented.
  function putCreates(
    res: ServerResponse,
    operation: Operation,
    store: Map<string, Row>,
    resource: Resource,
    id: string,
    body: Row,
    out: (record: unknown) => unknown,
  ) {
    const idField = resource.id?.name as string;
    const numeric = resource.id?.schema.type === 'integer' || resource.id?.schema.type === 'number';
    const newId = breakage === 'put-ignores-path-id' ? nextId(resource.id?.schema) : numeric ? Number(id) : id;
    const record = complete(resource, { ...body, [idField]: newId }, undefined);
    if (breakage !== 'put-stores-nothing') store.set(String(newId), record);
    const documented = operation.responses.some((r) => r.code === '201');
    const created = documented && breakage !== 'put-creates-200' ? 201 : lowestSuccess(operation);
    return send(res, created, out(record));
  }

  function storeName(resource: Resource, parents: readonly string[]): string {
    return `${resource.key} ${parents.join('/')}`;
  }

  function storeFor(resource: Resource, parents: readonly string[]): Map<string, Row> {
    const name = storeName(resource, parents);
    const known = stores.get(name) ?? new Map<string, Row>();
    stores.set(name, known);
    return known;
  }

  function parentExists(resource: Resource, parents: readonly string[]): boolean {
    if (parents.length === 0 || resource.parent === undefined) return true;
    const parent = model.resources.find((r) => r.key === resource.parent);
    const last = parents[parents.length - 1] as string;
    return parent === undefined || storeFor(parent, parents.slice(0, -1)).has(last) || orphans.has(last);
  }

  function emailTaken(resource: Resource, own: string | undefined, body: unknown): boolean {
    if (body === null || typeof body !== 'object') return false;
    const idField = resource.id?.name as string;
    return Object.entries(resource.schema?.properties ?? {}).some(([field, schema]) => {
      const wanted = (body as Row)[field];
      if (schema.format !== 'email' || typeof wanted !== 'string') return false;
      return allOf(resource).some(
        (row) => String(row[idField]) !== own && String(row[field]).toLowerCase() === wanted.toLowerCase(),
      );
    });
  }

  function allOf(resource: Resource): Row[] {
    return [...stores].filter(([name]) => name.startsWith(`${resource.key} `)).flatMap(([, s]) => [...s.values()]);
  }

  function anyParent(resource: Resource, id: string): Row | undefined {
    for (const [name, store] of stores) if (name.startsWith(`${resource.key} `) && store.has(id)) return store.get(id);
    return undefined;
  }

  function removeChildren(resource: Resource, ids: readonly string[]): void {
    for (const child of model.resources.filter((r) => r.parent === resource.key)) stores.delete(storeName(child, ids));
  }

  // The key where the operation's scheme puts it, read here without the mock's code; Bearer for any other operation.
  function authenticated(req: IncomingMessage, url: URL, operation: Operation): boolean {
    if (breakage === 'no-auth') return true;
    if (breakage === 'oauth-open' && operation.key?.scheme === 'bearer' && operation.key.tokenOf) return true;
    if (breakage === 'key-anywhere' && req.headers.authorization === `Bearer ${key}`) return true;
    const given = presentedKey(req, url, operation.key);
    if (breakage === 'key-prefix-taken' && given !== undefined && given.length > 0 && key.startsWith(given)) return true;
    return given === key;
  }

  function nextId(schema: JsonSchema | undefined): unknown {
    counter++;
    if (schema?.type === 'integer' || schema?.type === 'number') return counter;
    // An id held to a pattern: its example with the counter, zero-padded, at its end (`prj_0123456789` →
    // `prj_0123000012`). Unpadded, counters 9 and 89 both gave the example back, and the second create was refused.
    const example = schema?.example ?? schema?.examples?.[0];
    if (schema?.pattern !== undefined && typeof example === 'string') {
      const width = Math.max(6, String(counter).length);
      return `${example.slice(0, -width)}${String(counter).padStart(width, '0')}`;
    }
    return schema?.format === 'uuid' ? randomUUID() : String(counter);
  }

  function problem(operation: Operation | undefined, status: number): Row {
    const schema = operation?.responses.find((r) => r.code === String(status))?.contents[0]?.schema;
    const filled: Row = {};
    for (const name of schema?.required ?? ['code', 'message', 'status']) {
      const type = schema?.properties?.[name]?.type;
      filled[name] = type === 'integer' || type === 'number' || name === 'status' ? status : `error ${status}`;
    }
    return filled;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${base}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function validJson(text: string, validate: (value: unknown) => readonly unknown[]): boolean {
  try {
    return validate(JSON.parse(text)).length === 0;
  } catch {
    return false;
  }
}

// A copy of the record whose first text field two lists down (a child's child) holds a number.
function deepWrongType(record: Row): Row {
  const copy = structuredClone(record);
  const visit = (value: unknown, level: number): boolean => {
    if (Array.isArray(value)) return value.some((item) => visit(item, level + 1));
    if (value === null || typeof value !== 'object') return false;
    const row = value as Row;
    const text = level >= 2 ? Object.keys(row).find((name) => typeof row[name] === 'string') : undefined;
    if (text === undefined) return Object.values(row).some((item) => visit(item, level));
    row[text] = 7;
    return true;
  };
  visit(copy, 0);
  return copy;
}

// The record without the fields that hold lists of objects (a tree's children).
function withoutNestedLists(row: Row): Row {
  const nested = (value: unknown) => Array.isArray(value) && value.some((item) => item !== null && typeof item === 'object');
  return Object.fromEntries(Object.entries(row).filter(([, value]) => !nested(value)));
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (body === undefined || status === 204) {
    res.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

function lowestSuccess(operation: Operation): number {
  const codes = operation.responses.map((r) => Number(r.code)).filter((c) => c >= 200 && c < 300);
  return codes.length === 0 ? 200 : Math.min(...codes);
}

// What an operation that keeps no state answers: a value of its success schema, or nothing.
function presentedKey(req: IncomingMessage, url: URL, placed: KeyPlacement | undefined): string | undefined {
  const authorization = req.headers.authorization ?? '';
  if (placed?.scheme === 'basic') {
    return authorization.startsWith('Basic ') ? Buffer.from(authorization.slice(6), 'base64').toString() : undefined;
  }
  if (placed?.scheme !== 'apiKey') return authorization.startsWith('Bearer ') ? authorization.slice(7) : undefined;
  if (placed.in === 'query') return url.searchParams.get(placed.name) ?? undefined;
  if (placed.in === 'header') return [req.headers[placed.name.toLowerCase()] ?? []].flat()[0];
  const pair = (req.headers.cookie ?? '').split(/;\s*/).find((one) => one.startsWith(`${placed.name}=`));
  return pair?.slice(placed.name.length + 1);
}

function answerOf(operation: Operation): unknown {
  const schema = operation.responses.find((r) => r.code.startsWith('2'))?.contents[0]?.schema;
  return schema ? sampleValue(schema, true) : undefined;
}

function pathValues(operation: Operation, params: Readonly<Record<string, string>>): string[] {
  return [...operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => params[m[1] as string] as string);
}

// Each query parameter the operation declares, read as its type reads text (an array comma separated, style form
// with explode false), within its schema.
function queryValid(operation: Operation, query: URLSearchParams): boolean {
  return operation.parameters.every((p) => {
    const text = p.in === 'query' ? query.get(p.name) : null;
    if (text === null) return true;
    const numeric = (p.type === 'integer' || p.type === 'number') && /^-?\d+(\.\d+)?$/.test(text);
    const list = text === '' ? [] : text.split(',');
    const value =
      p.type === 'array'
        ? list
        : numeric
          ? Number(text)
          : p.type === 'boolean' && /^(true|false)$/.test(text)
            ? text === 'true'
            : text;
    return p.validate(value, `query.${p.name}`).length === 0;
  });
}

function defaultOf(operation: Operation, name: string): unknown {
  return operation.parameters.find((p) => p.name === name)?.schema.default;
}

/** Defaults for fields left out, the server's fields (ids, instants) kept from the old record or set now. */
function complete(resource: Resource, row: Row, old: Row | undefined): Row {
  const out: Row = {};
  for (const [name, property] of Object.entries(resource.schema?.properties ?? {})) {
    if (resource.serverFields.includes(name) && name !== resource.id?.name) {
      // A const the representation fixes (`kind: account`) is the server's to set, like a timestamp.
      const fixed = (property as { const?: unknown }).const;
      out[name] = old?.[name] ?? (property.format === 'date-time' ? new Date().toISOString() : (fixed ?? property.default));
      if (out[name] === undefined) delete out[name];
    } else if (row[name] !== undefined) out[name] = row[name];
    else if (property.default !== undefined) out[name] = property.default;
  }
  return out;
}

// RFC 7396 §2: null removes a member, objects merge, anything else replaces.
function mergePatch(target: Row, patch: Row): Row {
  const out: Row = { ...target };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete out[name];
    else if (typeof value === 'object' && !Array.isArray(value) && typeof out[name] === 'object' && out[name] !== null) {
      out[name] = mergePatch(out[name] as Row, value as Row);
    } else out[name] = value;
  }
  return out;
}

// RFC 7396 §2: a null in a merge patch removes the member, so the schema judges the other members (a document of
// nulls alone still has its members, whatever minProperties says).
function refused(
  kind: ResourceOperationKind,
  body: unknown,
  validate: (value: unknown, at: string) => readonly { message: string }[],
  sentAt: readonly string[],
) {
  if (kind !== 'merge-patch') return validate(body, 'body').length > 0;
  const patch = sentAt.length > 0 ? recordAt(body, sentAt) : body;
  const members = withoutNulls(patch);
  const removes = members !== patch && Object.keys(members as Row).length < Object.keys(patch as Row).length;
  const sent =
    sentAt.length === 0 || members === patch ? members : { ...(body as Row), ...(wrapRecord(members, sentAt, []) as Row) };
  return validate(sent, 'body').some((e) => !(removes && /fewer than \d+ propert/.test(e.message)));
}

function withoutNulls(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null));
}

function setAt(body: Row, pointer: readonly string[], value: unknown): void {
  let at = body;
  for (const name of pointer.slice(0, -1)) {
    at[name] ??= {};
    at = at[name] as Row;
  }
  at[pointer.at(-1) as string] = value;
}

function wrap(pointer: readonly string[], rows: Row[]): unknown {
  return pointer.reduceRight<unknown>((inner, key) => ({ [key]: inner }), rows);
}
