import type { Operation, ParameterSpec } from '../operation.js';
import { findIdField, type IdAnswer } from './find-id-field.js';
import { noteRequestPointer, onlyContainers, recordInAnswer, recordInRequest } from './envelope.js';
import { objectShape, type ObjectShape, type RawSchema, schemaTypes } from './object-shape.js';
import { readListQuery } from './read-list-query.js';
import { parentKey, pathParameterNames, readPath } from './read-path.js';
import { answerSchema, type Found, listedIn, recordIn, requestBodySchema } from './representation.js';
import type { Resource, ResourceModel, ResourceOperation, ResourceOperationKind, StatelessOperation } from './resource.js';
import { type ExtensionPlace, readResourceIdExtension } from './resource-id-extension.js';
import { linkedIdField } from './linked-id-field.js';
import { createsAtPath } from './creates-at-path.js';
import { withSingletons } from './singletons.js';

/** What the inference reads of a loaded contract: its operations, and the document for path items and links. */
export interface ContractView {
  readonly operations: readonly Operation[];
  readonly document: object;
}

// docs/resources.md rule 6: the CRUD role of each method, on a collection path and on an item path. A method
// that has no row here is not CRUD and stays stateless.
const COLLECTION_KINDS: Readonly<Record<string, ResourceOperationKind>> = { POST: 'create', GET: 'list' };
const ITEM_KINDS: Readonly<Record<string, ResourceOperationKind>> = {
  GET: 'get',
  PUT: 'replace',
  PATCH: 'merge-patch',
  DELETE: 'delete',
};

// The order reports list operations in: a record's life, whatever order the contract declares them in.
const KIND_ORDER: readonly ResourceOperationKind[] = ['create', 'list', 'get', 'replace', 'merge-patch', 'delete'];

// RFC 7396 §4 registers application/merge-patch+json; a PATCH documented with plain JSON is read as a merge too,
// as most APIs that declare it mean. RFC 6902 JSON Patch (application/json-patch+json) is not applied.
const MERGE_MEDIA = new Set(['application/merge-patch+json', 'application/json']);

interface Group {
  readonly key: string;
  readonly collectionPath: string;
  itemPath: string | undefined;
  itemParameter: string | undefined;
  readonly collection: Operation[];
  readonly item: Operation[];
}

/**
 * The resources a contract describes, from its paths, methods and schemas alone (docs/resources.md): one per
 * collection key, each with its representation schema, id field, CRUD operations, list query and server-set
 * fields, or the reason it stays stateless. Pure: the same contract gives the same model, in contract order.
 */
export function inferResources(contract: ContractView): ResourceModel {
  let model = inferred.get(contract);
  if (model === undefined) {
    model = withSingletons(contract.operations, inferFrom(contract));
    inferred.set(contract, model);
  }
  return model;
}

// Both tools and several case kinds ask for the same contract's model: it is inferred once per loaded contract, and
// goes with it (a contract replaced under --watch takes its model along).
const inferred = new WeakMap<ContractView, ResourceModel>();

function inferFrom(contract: ContractView): ResourceModel {
  const groups = new Map<string, Group>();
  const unplaced: StatelessOperation[] = [];
  for (const operation of contract.operations) {
    const place = readPath(operation.path);
    if (place.kind === 'other') {
      unplaced.push(statelessOperation(operation, place.reason));
      continue;
    }
    let group = groups.get(place.key);
    if (!group) {
      group = {
        key: place.key,
        collectionPath: place.collectionPath,
        itemPath: undefined,
        itemParameter: undefined,
        collection: [],
        item: [],
      };
      groups.set(place.key, group);
    }
    if (place.kind === 'collection') group.collection.push(operation);
    else {
      group.itemPath ??= operation.path;
      group.itemParameter ??= place.itemParameter;
      group.item.push(operation);
    }
  }
  const resources = [...groups.values()].map((group) => buildResource(group, contract.document));
  const keys = new Set(resources.map((r) => r.key));
  return {
    resources: resources.map((r) => {
      const parent = parentKey(r.key);
      return parent !== undefined && keys.has(parent) ? { ...r, parent } : r;
    }),
    unplaced,
  };
}

function buildResource(group: Group, document: object): Resource {
  const { operations, skipped } = classify(group);
  const byKind = (kind: ResourceOperationKind) => operations.find((o) => o.kind === kind)?.operation;
  const [get, create, list] = [byKind('get'), byKind('create'), byKind('list')];
  const name = group.key.split('/').at(-1) as string;
  const idOf = (found: Found) =>
    findIdField({
      shape: objectShape(found.schema) as ObjectShape,
      name,
      parameter: itemParameter(group),
      extension: readResourceIdExtension(extensionPlaces(group, document, found.schema)),
      linked: create && group.itemParameter ? linkedIdField(document, create, group.itemParameter, group.item) : undefined,
    });
  const found = enveloped(representation(get, create, list), idOf);
  const shape = objectShape(found?.found.schema);
  const listPointer = (list && listedIn(answerSchema(list))?.pointer) ?? [];
  const base = {
    key: group.key,
    name,
    collectionPath: group.collectionPath,
    itemPath: group.itemPath,
    parent: undefined,
    schema: found?.found.schema as Resource['schema'],
    schemaSource: found?.source,
    listPointer,
    operations: operations
      .map(({ operation, kind }) => resourceOperation(operation, kind))
      .sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind)),
    list: list && shape ? readListQuery(list, shape, listPointer) : undefined,
    skipped,
  };
  const idAnswer: IdAnswer | undefined = shape && found ? idOf(found.found) : undefined;
  const stateless = statelessReason(group, operations.length, found, shape, get ?? list, idAnswer);
  const id = idAnswer && 'id' in idAnswer ? idAnswer.id : undefined;
  const replace = byKind('replace');
  const upsert = create === undefined && replace && id && createsAtPath(replace, shape?.properties[id.name]?.readOnly === true);
  const placed = shape && id ? base.operations.map((op) => withRecordPlaces(op, operations, shape, id.name)) : base.operations;
  return {
    ...base,
    operations: upsert ? placed.map((op) => (op.kind === 'replace' ? { ...op, creates: true as const } : op)) : placed,
    id: stateless === undefined ? id : undefined,
    serverFields: shape && id ? serverFields(shape, id.name, create) : [],
    stateless,
  };
}

// The first reason that applies, most basic first: a resource with no records to read needs no id to say so.
function statelessReason(
  group: Group,
  crud: number,
  found: { found: Found } | undefined,
  shape: ObjectShape | undefined,
  reader: Operation | undefined,
  id: IdAnswer | undefined,
): string | undefined {
  if (crud === 0) return 'none of its operations is CRUD';
  if (found === undefined) return 'no JSON object to keep: neither its get, its create nor its list answers one';
  if (shape === undefined) return 'its representation is not a JSON object';
  if (reader === undefined)
    return `nothing reads its records back: no GET ${group.collectionPath.replace(/\/$/, '')}/{id} and no list`;
  return id && 'reason' in id ? id.reason : undefined;
}

function classify(group: Group): {
  operations: { operation: Operation; kind: ResourceOperationKind }[];
  skipped: StatelessOperation[];
} {
  const operations: { operation: Operation; kind: ResourceOperationKind }[] = [];
  const skipped: StatelessOperation[] = [];
  const place = (operation: Operation, table: Readonly<Record<string, ResourceOperationKind>>, where: string) => {
    const kind = table[operation.method];
    const problem =
      kind === undefined
        ? `${operation.method} on ${where} path is not CRUD`
        : operations.some((o) => o.kind === kind)
          ? `a second ${kind} of the resource`
          : unusable(operation, kind);
    if (problem !== undefined || kind === undefined) skipped.push(statelessOperation(operation, problem as string));
    else operations.push({ operation, kind });
  };
  for (const operation of group.collection) place(operation, COLLECTION_KINDS, 'a collection');
  for (const operation of group.item) place(operation, ITEM_KINDS, 'an item');
  return { operations, skipped };
}

/** Why an operation with a CRUD method cannot play its role, or undefined. */
function unusable(operation: Operation, kind: ResourceOperationKind): string | undefined {
  if (kind === 'list' && listedIn(answerSchema(operation)) === undefined) return 'its answer is not a list of objects';
  if ((kind === 'create' || kind === 'replace') && requestBodySchema(operation) === undefined)
    return 'it takes no JSON request body';
  if (kind === 'merge-patch' && !operation.requestBody?.contents.some((c) => MERGE_MEDIA.has(c.mediaType))) {
    return 'its body is neither application/merge-patch+json (RFC 7396) nor application/json';
  }
  return undefined;
}

// docs/reference/resources.md rule 10: a representation whose top has no id field and no member but objects and
// arrays, of which exactly one object member (required, or the only member) has one, is an envelope: the record is
// that member (`{ data, meta }`).
function enveloped(
  found: { found: Found; source: NonNullable<Resource['schemaSource']> } | undefined,
  idOf: (found: Found) => IdAnswer,
): { found: Found; source: NonNullable<Resource['schemaSource']> } | undefined {
  const shape = objectShape(found?.found.schema);
  if (!found || !shape || !onlyContainers(shape) || 'id' in idOf(found.found)) return found;
  const inner = Object.entries(shape.properties).flatMap(([member, schema]): Found[] => {
    const candidate = { schema, pointer: [...found.found.pointer, member] };
    const fits = (shape.required.has(member) || Object.keys(shape.properties).length === 1) && recordIn(schema) !== undefined;
    return fits && !schemaTypes(schema).includes('array') && 'id' in idOf(candidate) ? [candidate] : [];
  });
  return inner.length === 1 ? { found: inner[0] as Found, source: found.source } : found;
}

// rule 10: where each write's request and each answer of a record carry it, read once the id field is known; the
// request's is noted for the case generators (envelope.ts).
function withRecordPlaces(
  op: ResourceOperation,
  operations: readonly { operation: Operation; kind: ResourceOperationKind }[],
  shape: ObjectShape,
  idName: string,
): ResourceOperation {
  const operation = operations.find((o) => o.operation.operationId === op.operationId)?.operation as Operation;
  const requestRecord = WRITES.has(op.kind)
    ? recordInRequest(requestBodySchema(operation), shape, pathParameterNames(operation.path))
    : [];
  noteRequestPointer(operation, requestRecord);
  const answerRecord = op.kind === 'list' ? [] : recordInAnswer(answerSchema(operation), idName);
  return { ...op, requestRecord, answerRecord };
}

const WRITES: ReadonlySet<ResourceOperationKind> = new Set(['create', 'replace', 'merge-patch']);

// docs/resources.md rule 3: the item GET's answer, else the create's, else the list's items.
function representation(
  get: Operation | undefined,
  create: Operation | undefined,
  list: Operation | undefined,
): { found: Found; source: NonNullable<Resource['schemaSource']> } | undefined {
  const fromGet = get && recordIn(answerSchema(get));
  if (fromGet) return { found: fromGet, source: 'get' };
  const fromCreate = create && recordIn(answerSchema(create));
  if (fromCreate) return { found: fromCreate, source: 'create' };
  const fromList = list && listedIn(answerSchema(list));
  return fromList ? { found: fromList, source: 'list' } : undefined;
}

function itemParameter(group: Group): ParameterSpec | undefined {
  for (const operation of group.item) {
    const name = pathParameterNames(operation.path).at(-1);
    const parameter = operation.parameters.find((p) => p.in === 'path' && p.name === name);
    if (parameter) return parameter;
  }
  return undefined;
}

function extensionPlaces(group: Group, document: object, schema: RawSchema): ExtensionPlace[] {
  const paths = (document as { paths?: Record<string, object> }).paths ?? {};
  return [
    ...[...group.item, ...group.collection].map((o) => ({ where: `${o.method} ${o.path}`, holder: o.extensions })),
    ...[group.itemPath, group.collectionPath].flatMap((p) => (p === undefined ? [] : [{ where: `path ${p}`, holder: paths[p] }])),
    { where: 'the representation schema', holder: schema },
  ];
}

// docs/resources.md rule 7: readOnly properties, and the id when the create's request does not carry it (NewPet).
function serverFields(shape: ObjectShape, id: string, create: Operation | undefined): string[] {
  const request = create && objectShape(requestBodySchema(create));
  const assigned = request !== undefined && request.properties[id] === undefined;
  return Object.entries(shape.properties)
    .filter(([name, property]) => property.readOnly === true || (name === id && assigned))
    .map(([name]) => name);
}

function resourceOperation(operation: Operation, kind: ResourceOperationKind): ResourceOperation {
  return {
    kind,
    operationId: operation.operationId,
    method: operation.method,
    path: operation.path,
    pathParameters: pathParameterNames(operation.path),
    requestRecord: [],
    answerRecord: [],
  };
}

function statelessOperation(operation: Operation, reason: string): StatelessOperation {
  return { operationId: operation.operationId, method: operation.method, path: operation.path, reason };
}
