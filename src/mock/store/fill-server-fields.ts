import { randomUUID } from 'node:crypto';
import { objectShape, type RawSchema } from '../../contract/resources/object-shape.js';
import type { Resource } from '../../contract/resources/resource.js';
import type { JsonSchema } from '../../contract/operation.js';
import { sampleValue } from '../../contract/sample-value.js';
import { setOwn } from '../../contract/set-own.js';

// Values the server can make for a readOnly field from its format alone (docs/resources.md rule 7).
const GENERATED: Readonly<Record<string, (now: Date) => string>> = {
  'date-time': (now) => now.toISOString(),
  date: (now) => now.toISOString().slice(0, 10),
  uuid: () => randomUUID(),
};

/**
 * The record a create or a replace stores, before its id: the request's fields in the representation's order,
 * `default` values where the request leaves a field out (PUT is a full replace: left out means default, never the
 * old value), null where there is none and the representation requires the field and allows null, and readOnly
 * fields set by the server, never taken from the request: a date-time is `now`, a date
 * today, a uuid a new one; another readOnly field keeps its default, or takes a valid sample where the
 * representation requires it (a `kind: {const: project}`), or stays out. The id is left to the store.
 */
export function fillServerFields(
  resource: Resource,
  body: Readonly<Record<string, unknown>>,
  now: Date,
  request: RequestFields = {},
): Record<string, unknown> {
  const { properties, server, idField, required } = planOf(resource);
  const { offered, missing } = request;
  const record: Record<string, unknown> = {};
  for (const [name, property] of properties) {
    if (name === idField && server.has(name)) continue;
    const value = server.has(name)
      ? generated(property, now, required.has(name))
      : Object.hasOwn(body, name) && (offered === undefined || offered.has(name))
        ? body[name]
        : missing?.has(name)
          ? copied(missing.get(name))
          : absent(property, required.has(name));
    if (value !== undefined) setOwn(record, name, value);
  }
  // Fields the schema does not name (additionalProperties) are kept as sent, after the named ones.
  for (const name of Object.keys(body)) {
    if (!Object.hasOwn(properties.shape, name) && !server.has(name) && (offered === undefined || offered.has(name)))
      setOwn(record, name, body[name]);
  }
  return record;
}

/** What the operation's request schema says of a body (see resource-handlers): what it offers, what a field left out takes. */
export interface RequestFields {
  /** The fields a request may set; all when undefined (the schema takes additionalProperties, or has no shape). */
  readonly offered?: ReadonlySet<string> | undefined;
  /** The value a field left out takes, where the mock chooses one (an enum's default or first value). */
  readonly missing?: ReadonlyMap<string, unknown>;
}

interface FillPlan {
  readonly properties: readonly (readonly [string, RawSchema])[] & { readonly shape: Readonly<Record<string, RawSchema>> };
  readonly server: ReadonlySet<string>;
  readonly idField: string | undefined;
  readonly required: ReadonlySet<string>;
}

const plans = new WeakMap<Resource, FillPlan>();

// Read once a resource: this is every create and replace.
function planOf(resource: Resource): FillPlan {
  let plan = plans.get(resource);
  if (plan === undefined) {
    const object = objectShape(resource.schema);
    const shape = object?.properties ?? {};
    const properties = Object.assign(Object.entries(shape), { shape });
    const required = object?.required ?? new Set<string>();
    plan = { properties, server: new Set(resource.serverFields), idField: resource.id?.name, required };
    plans.set(resource, plan);
  }
  return plan;
}

// A default is the contract's own object: each record gets its own copy.
function copied(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

// A field the request left out: its default; else null where the representation requires it and allows null (a
// 3.1 `description: {type: [string, "null"]}` required in answers, optional in requests), so the answer holds it.
function absent(property: RawSchema, required: boolean): unknown {
  if (property.default !== undefined || !required) return copied(property.default);
  const types = Array.isArray(property.type) ? property.type : [];
  return property.nullable === true || types.includes('null') ? null : undefined;
}

function generated(property: RawSchema, now: Date, required: boolean): unknown {
  const make = property.format === undefined ? undefined : GENERATED[property.format];
  if (make) return make(now);
  if (property.default !== undefined || !required) return copied(property.default);
  return sampleValue(property as JsonSchema);
}
