import type { JsonSchema, Operation } from '../../../../contract/operation.js';
import { objectShape, type RawSchema } from '../../../../contract/resources/object-shape.js';
import { requestSchema } from '../../../../contract/resources/representation.js';
import { operationOf } from '../../../../contract/resources/resource-roles.js';
import type { Scenario } from '../../scenario.js';
import { successStatuses } from '../expected-statuses.js';
import { makeCase, type StepSpec } from '../make-case.js';
import { pathParams } from '../own-records.js';
import { sampleValue } from '../sample-value.js';
import { type Context, readStep } from './effects-context.js';

/**
 * RFC 7396 §2 merges an object member key by key: a merge patch that sends a map (`labels`, an object whose keys
 * are `additionalProperties`) with one key set and another null keeps the keys it leaves out, sets the one and
 * removes the other. A server that replaces the whole map, or keeps the key sent null, fails. The record is created
 * with two keys of the case's choosing, so what it shows after is known exactly.
 */
export function nestedMergeCases(ctx: Context, kind: string): Scenario[] {
  const patch = operationOf(ctx.resource, 'merge-patch', ctx.contract.byId);
  const map = patch && mapField(ctx, patch);
  if (!patch || !map) return [];
  const { name, value } = map;
  const create = ctx.own.steps[ctx.own.steps.length - 1] as StepSpec;
  const before = { kept: value, dropped: value };
  return [
    makeCase({
      kind,
      id: `${patch.operationId}/${name}/merges-keys`,
      name: `${patch.operationId} merges ${name} key by key: ${ctx.get.operationId} shows the keys left out, the one set, not the one sent null`,
      description: `Given a record the case created with ${name} {kept, dropped}, when ${patch.operationId} sends ${name} {dropped: null, added} (RFC 7396 §2: an object merges member by member), then ${ctx.get.operationId} shows ${name}.kept as it was and ${name}.added (update-took-effect), and no ${name}.dropped (patch-null-removes).`,
      steps: [
        ...ctx.own.steps.slice(0, -1),
        { ...create, body: { kind: 'json', value: { ...ctx.own.body, [name]: before } } },
        {
          operation: patch,
          params: pathParams(patch, ctx.own.values),
          body: { kind: 'json', value: { [name]: { dropped: null, added: value } } },
          capture: 'merged',
          expect: { status: successStatuses(patch) },
        },
        readStep(ctx, { check: 'update-took-effect', status: ['2XX'], body: { [name]: { kept: value, added: value } } }),
        readStep(ctx, {
          check: 'patch-null-removes',
          status: ['2XX'],
          absent: { field: 'dropped', within: name, was: value, allowed: [], writeStatus: '{{merged.status}}' },
        }),
      ],
    }),
  ];
}

/**
 * The first optional map the record shows and the patch sends: an object whose keys are free (additionalProperties
 * a schema, no properties, patterns or names of its own), room for three keys, values the case can make, and a
 * null the patch may send (its media type is application/merge-patch+json, or the values allow null).
 */
function mapField(ctx: Context, patch: Operation): { name: string; value: unknown } | undefined {
  const shown = objectShape(ctx.resource.schema);
  const sent = objectShape(requestSchema(patch));
  if (!shown || !sent) return undefined;
  const merge = patch.requestBody?.contents.some((c) => c.mediaType === 'application/merge-patch+json') ?? false;
  for (const [name, property] of Object.entries(sent.properties)) {
    const read = shown.properties[name];
    if (!read || name === ctx.id || ctx.resource.serverFields.includes(name) || property.readOnly) continue;
    const values = freeKeys(read);
    const patched = freeKeys(property);
    if (!values || !patched || !(merge || patched.nullable === true || patched.type === 'null')) continue;
    const value = sampleValue(values);
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return { name, value };
  }
  return undefined;
}

function freeKeys(schema: RawSchema | JsonSchema): JsonSchema | undefined {
  const map = schema as JsonSchema & { patternProperties?: unknown; propertyNames?: unknown; maxProperties?: number };
  const values = map.additionalProperties;
  if (typeof values !== 'object' || map.patternProperties || map.propertyNames) return undefined;
  if (Object.keys(map.properties ?? {}).length > 0 || (map.maxProperties !== undefined && map.maxProperties < 3))
    return undefined;
  return values;
}
