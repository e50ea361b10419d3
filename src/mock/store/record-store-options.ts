import type { Resource } from '../../contract/resources/resource.js';
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
    indexFields: [...new Set(resource.list?.filters.map((f) => f.field) ?? [])],
  };
}

// docs/resources.md, Create: max+1 for integers, a UUID for format uuid; other text ids count up as text.
function idKindOf(schema: { readonly type?: unknown; readonly format?: string }): IdKind {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer') || types.includes('number')) return 'integer';
  return schema.format === 'uuid' ? 'uuid' : 'string';
}
