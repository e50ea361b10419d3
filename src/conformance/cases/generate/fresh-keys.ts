import type { JsonSchema, Operation } from '../../../contract/operation.js';
import { referencedResource } from '../../../contract/resources/referenced-resource.js';
import { requestSchema } from '../../../contract/resources/representation.js';
import { resourceRoles } from '../../../contract/resources/resource-roles.js';
import type { ResourceModel } from '../../../contract/resources/resource.js';
import { freshString } from '../../../contract/sample/string-sample.js';
import type { Random } from './create-random.js';
import { isFreeText, sampleValue } from './sample-value.js';

// Formats a unique key is written in (an account's email, a site's host); a uuid or a date is no key a client picks.
const KEY_FORMATS = new Set(['email', 'idn-email', 'hostname', 'idn-hostname', 'uri', 'url', 'iri']);
const TOKEN = '0123456789abcdefghijklmnopqrstuvwxyz';
// Values drawn here, so that a body made from another write's fresh body (a second create of the same base) draws
// its own: a server that holds emails unique (409) would refuse the second.
const drawn = new Set<string>();
const DRAWN_KEPT = 100_000;

/**
 * Whether a field is likely a unique key a server may hold to (a documented 409 for a taken email or username): a
 * string with a key format, or bounded by length or pattern without one. Free text carries the run's mark instead;
 * an enum or const names a kind, not a record.
 */
export function likelyUnique(schema: JsonSchema): boolean {
  if (schema.type !== 'string' || schema.enum || 'const' in schema || isFreeText(schema)) return false;
  return schema.format === undefined || KEY_FORMATS.has(schema.format);
}

/**
 * `body` with a value of its own, drawn from the run's seeded generator, in each top-level field likely to be a
 * unique key that still holds its sample or a value drawn for another write: two writes of one run never send the
 * same email. A value a case chose on purpose (an edge value, a filter of its own), the record's own id and a field
 * that refers to another resource's records (bound to a record of the case's own later) are left as they are.
 */
export function withFreshKeys<T>(model: ResourceModel, operation: Operation, body: T, random: Random): T {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const sent = body as Record<string, unknown>;
  const from = resourceRoles(model).get(operation.operationId)?.resource;
  let out: Record<string, unknown> | undefined;
  for (const [name, property] of Object.entries(requestSchema(operation)?.properties ?? {})) {
    const value = sent[name];
    if (typeof value !== 'string' || name === from?.id?.name || !likelyUnique(property)) continue;
    const plain = sampleValue(property);
    if (value !== plain && !drawn.has(value)) continue;
    if (referencedResource(model, name, from, property)) continue;
    const fresh = freshString(property, plain as string, random.text(8, TOKEN), (n) => random.below(n));
    if (fresh === undefined) continue;
    if (drawn.size >= DRAWN_KEPT) drawn.clear();
    drawn.add(fresh);
    out ??= { ...sent };
    out[name] = fresh;
  }
  return (out ?? body) as T;
}
