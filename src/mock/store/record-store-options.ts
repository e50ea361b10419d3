import type { JsonSchema } from '../../contract/operation.js';
import type { Resource } from '../../contract/resources/resource.js';
import { numberedPatternString } from '../../contract/sample/pattern-string.js';
import type { IdKind, RecordStoreOptions } from './record-store.js';

/**
 * How a store keeps one inferred resource's records: by its id field, assigning ids of its id's kind, with an
 * index per filter of its list. Undefined for a resource that stays stateless (Prism answers it).
 */
export function recordStoreOptions(
  resource: Resource,
  limits: Pick<RecordStoreOptions, 'maxRecords' | 'budget'>,
): RecordStoreOptions | undefined {
  if (resource.stateless !== undefined || resource.id === undefined) return undefined;
  return {
    ...limits,
    name: resource.name,
    idField: resource.id.name,
    idKind: idKindOf(resource.id.schema),
    ...textIdOf(resource.id.schema),
    indexFields: [...new Set(resource.list?.filters.map((f) => f.field) ?? [])],
  };
}

// docs/resources.md, Create: max+1 for integers, a UUID for format uuid; other text ids count up as text (in
// their pattern where they have one).
function idKindOf(schema: { readonly type?: unknown; readonly format?: string }): IdKind {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer') || types.includes('number')) return 'integer';
  return schema.format === 'uuid' ? 'uuid' : 'string';
}

// A text id with a pattern (`^prj_[0-9a-z]{10}$`) is written in it, one string a number: counting up as text
// (`1`) would break the pattern the contract's answers are held to.
function textIdOf(schema: JsonSchema): Pick<RecordStoreOptions, 'textId'> {
  const { pattern } = schema;
  if (pattern === undefined || schema.format === 'uuid') return {};
  return { textId: (n) => numberedPatternString(pattern, n, schema.minLength, schema.maxLength) };
}
