import type { Resource } from '../../contract/resources/resource.js';
import type { IdKind, RecordStoreOptions } from './record-store.js';
import { textIdMaker } from './text-ids.js';

/**
 * How a store keeps one inferred resource's records: by its id field, assigning ids of its id's kind, with an
 * index per filter of its list. Undefined for a resource that stays stateless (Prism answers it).
 */
export function recordStoreOptions(
  resource: Resource,
  limits: Pick<RecordStoreOptions, 'maxRecords' | 'budget'>,
): RecordStoreOptions | undefined {
  if (resource.stateless !== undefined || resource.id === undefined) return undefined;
  const idKind = idKindOf(resource.id.schema);
  const freshId = idKind === 'string' ? textIdMaker(resource.id.schema) : undefined;
  return {
    ...limits,
    name: resource.name,
    idField: resource.id.name,
    idKind,
    ...(freshId && { freshId }),
    ...(resource.schema?.writeOnlyProperties && { hiddenFields: resource.schema.writeOnlyProperties }),
    indexFields: [...new Set(resource.list?.filters.map((f) => f.field) ?? [])],
  };
}

// docs/resources.md, Ids: max+1 for integers, a UUID for format uuid; other text ids are made in their example's
// shape, else count up as text where the id schema takes that (textIdMaker).
function idKindOf(schema: { readonly type?: unknown; readonly format?: string }): IdKind {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer') || types.includes('number')) return 'integer';
  return schema.format === 'uuid' ? 'uuid' : 'string';
}
