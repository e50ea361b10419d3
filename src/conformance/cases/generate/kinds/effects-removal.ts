import type { JsonSchema, Operation } from '../../../../contract/operation.js';
import { objectShape, type RawSchema, schemaTypes } from '../../../../contract/resources/object-shape.js';
import { requestSchema } from '../../../../contract/resources/representation.js';
import { operationOf } from '../../../../contract/resources/resource-roles.js';
import type { EffectCheckId, Scenario } from '../../scenario.js';
import { invalidInputStatus, successStatuses } from '../expected-statuses.js';
import { makeCase, type StepSpec } from '../make-case.js';
import { pathParams } from '../own-records.js';
import { type Context, namedAsItsPath, readStep } from './effects-context.js';

/**
 * Writes that must take an optional field away: a PUT whose body leaves it out (a replace, not a merge), and a
 * merge patch that sets it to null (RFC 7396 §2). The record is created with the field at a value other than its
 * default, so a server that fills the default for an absent field is told apart from one that kept the old value.
 */
export function removalCases(ctx: Context, kind: string): Scenario[] {
  const replace = operationOf(ctx.resource, 'replace', ctx.contract.byId);
  const patch = operationOf(ctx.resource, 'merge-patch', ctx.contract.byId);
  const cases: Scenario[] = [];
  const put = replace && optionalField(ctx, replace, false);
  if (replace && put) {
    const body = namedAsItsPath(ctx, replace, ctx.own.body);
    delete body[put.name];
    cases.push(
      removalCase(ctx, kind, replace, put, body, 'put-replaces', {
        name: `${replace.operationId} without ${put.name} replaces the record: ${ctx.get.operationId} shows no ${put.name}`,
        description: `Given a record the case created with ${put.name}, when ${replace.operationId} sends the record without it, then ${ctx.get.operationId} shows no ${put.name}, or its default (put-replaces).`,
      }),
    );
  }
  const nulled = patch && optionalField(ctx, patch, true);
  if (patch && nulled) {
    cases.push(
      removalCase(ctx, kind, patch, nulled, { [nulled.name]: null }, 'patch-null-removes', {
        name: `${patch.operationId} with ${nulled.name} null removes it: ${ctx.get.operationId} shows no ${nulled.name}`,
        description: `Given a record the case created with ${nulled.name}, when ${patch.operationId} sends ${nulled.name}: null (RFC 7396 §2: removed), then ${ctx.get.operationId} shows no ${nulled.name}, or its default (patch-null-removes).`,
      }),
    );
  }
  return cases;
}

interface Field {
  readonly name: string;
  /** What the case's create sends: not the default. */
  readonly value: unknown;
  /** What a read may show in its place besides nothing: the default, and null where the representation allows it. */
  readonly allowed: readonly unknown[];
}

function removalCase(
  ctx: Context,
  kind: string,
  write: Operation,
  field: Field,
  body: Record<string, unknown>,
  check: EffectCheckId,
  words: { readonly name: string; readonly description: string },
): Scenario {
  const create = ctx.own.steps[ctx.own.steps.length - 1] as StepSpec;
  // A contract whose body schema refuses null may have it refused with its documented 400: not verified, not failed.
  const invalid = invalidInputStatus(write);
  const refusal = check === 'patch-null-removes' && invalid !== undefined ? [invalid] : [];
  const withField = { ...create, body: { kind: 'json' as const, value: { ...ctx.own.body, [field.name]: field.value } } };
  return makeCase({
    kind,
    id: `${write.operationId}/${check}`,
    ...words,
    steps: [
      ...ctx.own.steps.slice(0, -1),
      withField,
      {
        operation: write,
        params: pathParams(write, ctx.own.values),
        body: { kind: 'json', value: body },
        capture: 'removed',
        expect: { effect: { check, status: [...successStatuses(write), ...refusal] } },
      },
      readStep(ctx, {
        check,
        status: ['2XX'],
        absent: { field: field.name, was: field.value, allowed: field.allowed, writeStatus: '{{removed.status}}' },
      }),
    ],
  });
}

/**
 * The first field the write may leave out and the case may set: optional in the representation and in the write's
 * body, neither the id nor one the server sets, nor writeOnly (a read never shows it). A null in a merge patch only
 * where its meaning is the media type's (application/merge-patch+json) or the schema allows null: a PATCH
 * documented as plain JSON may be validated against a schema that refuses it. Free text or numbers before enums,
 * whose value a server may move on.
 */
function optionalField(ctx: Context, write: Operation, nulls: boolean): Field | undefined {
  const shown = objectShape(ctx.resource.schema);
  const sent = objectShape(requestSchema(write));
  if (!shown || !sent) return undefined;
  const merge = write.requestBody?.contents.some((c) => /^application\/merge-patch\+json\b/i.test(c.mediaType)) ?? false;
  const candidates = Object.entries(sent.properties).filter(([name, property]) => {
    const read = shown.properties[name];
    if (!read || name === ctx.id || ctx.resource.serverFields.includes(name)) return false;
    if (shown.required.has(name) || sent.required.has(name) || (read as { writeOnly?: boolean }).writeOnly || property.readOnly)
      return false;
    return !nulls || merge || allowsNull(property);
  });
  const ordered = [...candidates.filter(([, p]) => !p.enum), ...candidates.filter(([, p]) => p.enum)];
  for (const [name] of ordered) {
    const read = shown.properties[name] as RawSchema;
    const value = notDefault(read, ctx.own.body[name]);
    if (value === undefined) continue;
    const allowed = [...(read.default !== undefined ? [read.default] : []), ...(allowsNull(read) ? [null] : [])];
    return { name, value, allowed };
  }
  return undefined;
}

// The create's value; for an enum, the last value that is neither the schema's default nor the first listed (what a
// server that defaults an absent field most often gives, the contract being silent), so a default is not taken for
// a kept value. Nothing where no such value is known.
function notDefault(schema: RawSchema, value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (!schema.enum) return schema.default !== undefined && same(schema.default, value) ? undefined : value;
  const first = schema.enum.find((other) => other !== null);
  return schema.enum.findLast((other) => other !== null && !same(other, schema.default) && !same(other, first));
}

function allowsNull(schema: RawSchema | JsonSchema): boolean {
  return (schema as { nullable?: boolean }).nullable === true || schemaTypes(schema).includes('null');
}
