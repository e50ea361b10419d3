import type { Validator } from '../../contract/compile-schema.js';
import { parseJson } from '../../contract/lossless-json.js';
import type { Contract } from '../../contract/load-contract.js';
import type { Resource } from '../../contract/resources/resource.js';
import { mockError } from '../error-codes.js';
import type { MockResponse } from '../handler.js';
import type { SessionStores } from '../session-stores.js';
import { checkRecords } from './check-records.js';
import type { RecordStore, StoredRecord } from '../store/record-store.js';

/** A resource the admin endpoints read, replace and clear, with the check its records must pass. */
export interface AdminResource {
  readonly resource: Resource;
  /** The representation as the contract answers it (the get's 2xx, else the create's): a record with its id. */
  readonly validate: Validator | undefined;
}

/** The served resources by collection path and by key (`/authors/{authorId}/books` and `/authors/{}/books`). */
export function adminResources(contract: Contract, resources: readonly Resource[]): Map<string, AdminResource> {
  const found = new Map<string, AdminResource>();
  for (const resource of resources) {
    const entry = { resource, validate: representationValidator(contract, resource) };
    found.set(resource.key, entry);
    found.set(resource.collectionPath, entry);
  }
  return found;
}

function representationValidator(contract: Contract, resource: Resource): Validator | undefined {
  for (const kind of ['get', 'create'] as const) {
    const op = resource.operations.find((o) => o.kind === kind);
    const operation = op && contract.byId.get(op.operationId);
    const success = operation?.responses.find((r) => /^2\d\d$/.test(r.code) && r.contents.some((c) => c.validate));
    const media = success?.contents.find((c) => c.validate);
    if (media?.validate) return media.validate;
  }
  return undefined;
}

/** `?resource=` names one served resource, by its collection path or its key. */
export function readAdminResource(known: ReadonlyMap<string, AdminResource>, name: string | null): AdminResource {
  const entry = name === null ? undefined : known.get(name);
  if (entry) return entry;
  const names = [...new Set([...known.values()].map((e) => e.resource.collectionPath))];
  const what = name === null ? 'query.resource is required' : `no stateful resource ${JSON.stringify(name.slice(0, 80))}`;
  throw mockError('not_found', `${what}: name one of ${names.join(', ') || '(none: the contract has no stateful resource)'}`);
}

/** Every record of the resource, in creation order (nested ones under all their parents), streamed. */
export function readRecords(sessions: SessionStores, session: string | undefined, entry: AdminResource): MockResponse {
  const stores = sessions.peekResources(session);
  if (!stores) throw mockError('not_found', `no session named ${session} has been used yet`);
  const store = stores.storeFor(entry.resource);
  return { status: 200, body: '', chunks: arrayChunks(store?.jsonRecords() ?? []) };
}

/**
 * Replaces the resource's records with a JSON array of records, each checked as the contract's representation
 * (its id included): all or nothing, so a refused array leaves the records as they were. Records nested under
 * it lose their parents, so they go too.
 */
export function replaceRecords(
  sessions: SessionStores,
  session: string | undefined,
  entry: AdminResource,
  text: string,
): MockResponse {
  const { resource } = entry;
  if (resource.parent !== undefined) {
    throw mockError(
      'validation_failed',
      `${resource.collectionPath} is nested: its records are made through their parents' paths (a PUT here is not supported)`,
    );
  }
  const records = readArray(text);
  const problem = checkRecords(entry, records, 'body');
  if (problem !== undefined) throw mockError('validation_failed', problem);
  const stores = sessions.contextFor(session).resources;
  const store = stores.storeFor(resource) as RecordStore;
  store.checkReplacement(records as StoredRecord[]);
  stores.clearResource(resource.key);
  store.replaceAll(records as StoredRecord[]);
  return json(200, { status: 'replaced', resource: resource.collectionPath, records: store.size });
}

/** Removes every record of the resource, and the records nested under them. */
export function clearRecords(sessions: SessionStores, session: string | undefined, entry: AdminResource): MockResponse {
  const stores = session === undefined ? sessions.peekResources(undefined) : sessions.contextFor(session).resources;
  stores?.clearResource(entry.resource.key);
  return json(200, { status: 'cleared', resource: entry.resource.collectionPath });
}

function readArray(text: string): readonly unknown[] {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    throw mockError('invalid_json');
  }
  if (!Array.isArray(value)) throw mockError('validation_failed', 'body: must be a JSON array of records');
  return value;
}

function* arrayChunks(records: Iterable<string>): Generator<string> {
  let first = true;
  for (const record of records) {
    yield `${first ? '[' : ','}${record}`;
    first = false;
  }
  yield first ? '[]' : ']';
}

function json(status: number, value: unknown): MockResponse {
  return { status, body: JSON.stringify(value) };
}
