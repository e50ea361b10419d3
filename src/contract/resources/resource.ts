import type { JsonSchema } from '../operation.js';

/** The CRUD roles an operation can play for a resource (docs/resources.md, Operations). */
export type ResourceOperationKind = 'create' | 'list' | 'get' | 'replace' | 'merge-patch' | 'delete';

export interface ResourceOperation {
  readonly kind: ResourceOperationKind;
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** The path's parameter names in template order: the parents' first, the item's last. Values are read by position. */
  readonly pathParameters: readonly string[];
  /**
   * Where the record sits in the request body (`['data']` of `{ data: {...} }`); empty for a bare record, or an
   * operation that takes none.
   */
  readonly requestRecord: readonly string[];
  /** Where the record sits in the 2xx answer of a create, get, replace, merge-patch or delete; empty for a bare one or a list. */
  readonly answerRecord: readonly string[];
  /**
   * A replace that makes the record when its path names none (rule 11, create-or-replace): the item PUT of a
   * resource with no create, at an id the client chooses. Only on a replace.
   */
  readonly creates?: true;
}

/** An operation on a resource's paths that the resource does not keep state for, and why. */
export interface StatelessOperation {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly reason: string;
}

/** Where the id field was read from, in the order the rules are tried. */
export type IdSource = 'x-resource-id' | 'link' | 'path parameter' | 'id';

export interface IdField {
  readonly name: string;
  readonly source: IdSource;
  /** What a reader needs to know of the rule that chose it: `petId`, `#/components/schemas/Book`, ... */
  readonly detail: string;
  readonly schema: JsonSchema;
}

export interface ListQuery {
  /** Query parameters that name a field of the representation: `?status=sold` keeps records whose status is sold. */
  readonly filters: readonly { readonly parameter: string; readonly field: string }[];
  /** Paging parameters by role, when the list declares them. */
  readonly paging: Readonly<Partial<Record<PagingRole, string>>>;
  /** Query parameters that neither filter nor page: a list answers as if they were absent. */
  readonly ignored: readonly string[];
  /** Where the answer carries the next page's cursor, when the list pages by a cursor and its contract says where. */
  readonly next?: NextCursor;
}

/** A field of the list answer (`['next']` of `{ items, next }`), or the `Link` header's `rel="next"` URL. */
export type NextCursor = { readonly in: 'body'; readonly pointer: readonly string[] } | { readonly in: 'link' };

export type PagingRole = 'limit' | 'offset' | 'page' | 'cursor';

export interface Resource {
  /** The collection template with parameter names erased (`/authors/{}/books`): the store key. */
  readonly key: string;
  /** The collection's last segment (`books`): how people name it. Not unique: `key` is. */
  readonly name: string;
  /** The collection path as the contract writes it, or as the item path implies it when only items are declared. */
  readonly collectionPath: string;
  readonly itemPath: string | undefined;
  /** The key of the resource this one is nested under (`/authors` for `/authors/{}/books`), when it is one. */
  readonly parent: string | undefined;
  /** The representation schema S; `undefined` only for a stateless resource. */
  readonly schema: JsonSchema | undefined;
  /** Which answer S was read from. */
  readonly schemaSource: 'get' | 'create' | 'list' | undefined;
  /** Property names a list answer wraps its items in (`['items']` for `{ items: [...], next }`); empty for a bare array. */
  readonly listPointer: readonly string[];
  readonly id: IdField | undefined;
  /** Fields the server sets: readOnly properties of S, and the id when the create's request does not carry it. */
  readonly serverFields: readonly string[];
  readonly operations: readonly ResourceOperation[];
  readonly list: ListQuery | undefined;
  /** Operations on the resource's paths left stateless while the resource keeps state. */
  readonly skipped: readonly StatelessOperation[];
  /** Why the whole resource stays stateless (Prism answers it from the contract's examples), or undefined. */
  readonly stateless: string | undefined;
}

export interface ResourceModel {
  readonly resources: readonly Resource[];
  /** Operations on no resource path at all, with the reason. */
  readonly unplaced: readonly StatelessOperation[];
  /** The single records (`/settings`, `/projects/{}/settings`): see singletons.ts. */
  readonly singletons?: readonly Singleton[];
}

/** What an operation does to a single record: read it, replace it (PUT), merge into it (RFC 7396). */
export type SingletonOperationKind = 'get' | 'replace' | 'merge-patch';

export interface SingletonOperation {
  readonly kind: SingletonOperationKind;
  readonly operationId: string;
  readonly method: string;
}

/** One record with no collection and no id of its own (docs/reference/resources.md rule 12). */
export interface Singleton {
  /** The path with parameter names erased (`/projects/{}/settings`). */
  readonly key: string;
  /** The path as the contract writes it. */
  readonly path: string;
  /** The key of the stateful resource whose item it belongs to, one record per parent; undefined at the top. */
  readonly parent: string | undefined;
  /** The GET's answer schema: what the record is. */
  readonly schema: JsonSchema;
  readonly operations: readonly SingletonOperation[];
}
