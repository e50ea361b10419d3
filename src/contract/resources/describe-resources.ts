import { referencedResource } from './referenced-resource.js';
import type { IdField, Resource, ResourceModel, ResourceOperation, Singleton, StatelessOperation } from './resource.js';

/**
 * The inference report, one line per resource and one per operation: what each tool will keep state for, by
 * which id, through which operations, and why anything was left stateless. Contract text is returned as it is:
 * the caller escapes it for where it is shown.
 */
export function describeResources(model: ResourceModel): string[] {
  const lines: string[] = [];
  const single = singletonKeys(model);
  for (const resource of model.resources) {
    if (single.has(resource.key)) continue;
    lines.push(`${resource.key} (${resource.name}): ${resourceState(resource)}`);
    for (const [field, schema] of Object.entries(resource.schema?.properties ?? {})) {
      const to = referencedResource(model, field, resource, schema);
      if (to) lines.push(`  refers by ${field} to ${to.key} (a record the runner creates first)`);
    }
    for (const o of resource.operations) {
      lines.push(
        `  ${roleName(o)} ${o.operationId} ${o.method} ${o.path}${o.kind === 'list' ? listDetail(resource) : recordPlaces(o)}`,
      );
    }
    for (const o of resource.skipped) lines.push(`  stateless ${statelessLine(o)}`);
  }
  for (const singleton of model.singletons ?? []) {
    lines.push(singletonLine(singleton));
    for (const o of singleton.operations) lines.push(`  ${o.kind} ${o.operationId} ${o.method} ${singleton.path}`);
  }
  if (model.unplaced.length > 0) lines.push('on no resource path (stateless):');
  for (const o of model.unplaced) lines.push(`  ${statelessLine(o)}`);
  return lines;
}

// A one-line summary stays one line a person reads: past this many resources, the rest are counted.
const MAX_NAMED = 12;

/**
 * One line for a start banner: `/pets (id: create, list, get), /settings (singleton: get, replace); stateless:
 * /messages (nothing reads ...)`, and the operations left stateless on resources that keep state, each with its reason.
 */
export function summarizeResources(model: ResourceModel): string {
  const stateful = model.resources.filter((r) => r.stateless === undefined);
  const kept = stateful.map((r) => `${r.key} (${r.id?.name}: ${r.operations.map(roleName).join(', ')})`);
  const parts = [named([...kept, ...(model.singletons ?? []).map(singletonLine)]) || 'none'];
  const single = singletonKeys(model);
  const stateless = model.resources.filter((r) => r.stateless !== undefined && !single.has(r.key));
  if (stateless.length > 0) parts.push(`stateless: ${named(stateless.map((r) => `${r.key} (${r.stateless})`))}`);
  const operations = [...stateful.flatMap((r) => r.skipped), ...model.unplaced];
  if (operations.length > 0) {
    parts.push(`stateless operations: ${named(operations.map((o) => `${o.operationId} (${o.reason})`))}`);
  }
  return parts.join('; ');
}

// A PUT that also creates (rule 11) is named for both roles it plays.
function roleName(o: ResourceOperation): string {
  return o.creates ? 'create-or-replace' : o.kind;
}

// A single record's path is also a collection path with nothing CRUD on it: it is shown once, as the record.
function singletonKeys(model: ResourceModel): ReadonlySet<string> {
  return new Set((model.singletons ?? []).map((s) => s.key));
}

// `/projects/{}/settings (singleton under /projects: get, replace)`
function singletonLine(singleton: Singleton): string {
  const under = singleton.parent === undefined ? '' : ` under ${singleton.parent}`;
  return `${singleton.key} (singleton${under}: ${singleton.operations.map((o) => o.kind).join(', ')})`;
}

function named(items: readonly string[]): string {
  const shown = items.slice(0, MAX_NAMED).join(', ');
  return items.length > MAX_NAMED ? `${shown} and ${items.length - MAX_NAMED} more` : shown;
}

const ID_SOURCES: Readonly<Record<IdField['source'], (detail: string) => string>> = {
  'x-resource-id': (where) => `x-resource-id at ${where}`,
  link: () => "a link from the create's answer",
  'path parameter': (name) => `the path parameter ${name}`,
  id: () => 'the property named id',
};

function resourceState(resource: Resource): string {
  if (resource.stateless !== undefined || resource.id === undefined) return `stateless: ${resource.stateless}`;
  const { id } = resource;
  const parent = resource.parent === undefined ? '' : `, under ${resource.parent}`;
  const server = resource.serverFields.length > 0 ? `; the server sets ${resource.serverFields.join(', ')}` : '';
  return `id field ${id.name} (${ID_SOURCES[id.source](id.detail)})${parent}; representation from its ${resource.schemaSource}${server}`;
}

function listDetail(resource: Resource): string {
  const list = resource.list;
  if (list === undefined) return '';
  const paging = Object.entries(list.paging).map(([role, name]) => (role === name ? role : `${role} ${name}`));
  const parts = [
    list.filters.length > 0 ? `filters ${list.filters.map((f) => f.parameter).join(', ')}` : '',
    paging.length > 0 ? `paging ${paging.join(', ')}` : '',
    list.ignored.length > 0 ? `ignores ${list.ignored.join(', ')}` : '',
    resource.listPointer.length > 0 ? `records in ${resource.listPointer.join('.')}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? `; ${parts.join('; ')}` : '';
}

// `; record in body.data, answered in data`: where an envelope holds the record (rule 10), only where one does.
function recordPlaces(o: ResourceOperation): string {
  const parts = [
    o.requestRecord.length > 0 ? `record sent in ${o.requestRecord.join('.')}` : '',
    o.answerRecord.length > 0 ? `record answered in ${o.answerRecord.join('.')}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? `; ${parts.join('; ')}` : '';
}

function statelessLine(o: StatelessOperation): string {
  return `${o.operationId} ${o.method} ${o.path}: ${o.reason}`;
}
