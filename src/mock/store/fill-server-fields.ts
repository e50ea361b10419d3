import { randomUUID } from 'node:crypto';
import { objectShape, type RawSchema } from '../../contract/resources/object-shape.js';
import type { Resource } from '../../contract/resources/resource.js';
import { setOwn } from '../../contract/set-own.js';
import { copied, leftOutValue } from './left-out-value.js';

// Values the server can make for a readOnly field from its format alone (docs/resources.md rule 7).
const GENERATED: Readonly<Record<string, (now: Date) => string>> = {
  'date-time': (now) => now.toISOString(),
  date: (now) => now.toISOString().slice(0, 10),
  uuid: () => randomUUID(),
};

/**
 * The record a create or a replace stores, before its id: the request's fields in the representation's order,
 * `default` values where the request leaves a field out (PUT is a full replace: left out means default, never the
 * old value), and readOnly fields set by the server, never taken from the request: a date-time is `now`, a date
 * today, a uuid a new one. A field still without a value takes leftOutValue (a const, a default, and for a
 * required one null, [] or a sample), so that the record is valid against the representation. writeOnly fields are
 * never stored: no answer may carry them. The id is left to the store.
 */
export function fillServerFields(
  resource: Resource,
  body: Readonly<Record<string, unknown>>,
  now: Date,
  request: RequestFields = {},
): Record<string, unknown> {
  const { properties, server, idField, required } = planOf(resource);
  const { offered, missing, hidden } = request;
  const record: Record<string, unknown> = {};
  for (const [name, property] of properties) {
    if (name === idField && server.has(name)) continue;
    const value = server.has(name)
      ? generated(property, now)
      : Object.hasOwn(body, name) && (offered === undefined || offered.has(name))
        ? body[name]
        : missing?.has(name)
          ? copied(missing.get(name))
          : undefined;
    const stored = value === undefined ? leftOutValue(property, required.has(name)) : value;
    if (stored !== undefined) setOwn(record, name, stored);
  }
  // Fields the schema does not name (additionalProperties) are kept as sent, after the named ones.
  for (const name of Object.keys(body)) {
    if (
      !Object.hasOwn(properties.shape, name) &&
      !server.has(name) &&
      (offered === undefined || offered.has(name)) &&
      !hidden?.has(name)
    )
      setOwn(record, name, body[name]);
  }
  return record;
}

/**
 * The value a field takes that a stored record lacks (one kept from before this rule, a fixture): as a create
 * fills it, so that a replace or a merge patch stores a record valid against the representation.
 */
export function missingValue(resource: Resource, name: string, now: Date): unknown {
  const { properties, required, server } = planOf(resource);
  const property = properties.shape[name];
  if (property === undefined) return undefined;
  return (server.has(name) ? generated(property, now) : undefined) ?? leftOutValue(property, required.has(name));
}

/** Whether the representation lets a field be null (a merge patch's null then stores null, not removes it). */
export function isNullable(resource: Resource, name: string): boolean {
  const property = planOf(resource).properties.shape[name] as { nullable?: boolean; type?: unknown } | undefined;
  return property?.nullable === true || (Array.isArray(property?.type) && property.type.includes('null'));
}

/** What the operation's request schema says of a body (see resource-handlers): what it offers, what a field left out takes. */
export interface RequestFields {
  /** The fields a request may set; all when undefined (the schema takes additionalProperties, or has no shape). */
  readonly offered?: ReadonlySet<string> | undefined;
  /** The value a field left out takes, where the mock chooses one (the request's default, an enum's first value). */
  readonly missing?: ReadonlyMap<string, unknown>;
  /** Fields never stored, whatever the request sends: those the contract marks writeOnly (never answered). */
  readonly hidden?: ReadonlySet<string>;
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

// undefined when the format is none the server makes: leftOutValue decides then.
function generated(property: RawSchema, now: Date): unknown {
  const make = property.format === undefined ? undefined : GENERATED[property.format];
  return make?.(now);
}
