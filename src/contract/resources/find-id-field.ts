import type { ParameterSpec } from '../operation.js';
import { isScalarSchema, type ObjectShape, type RawSchema, schemaTypes } from './object-shape.js';
import type { IdField } from './resource.js';
import type { ResourceIdSetting } from './resource-id-extension.js';

export interface IdQuestion {
  readonly shape: ObjectShape;
  /** The collection's last segment (`pets`): `petId` minus `pet` is `id`. */
  readonly name: string;
  /** The item path's parameter, when the resource has an item path. */
  readonly parameter: ParameterSpec | undefined;
  readonly extension: ResourceIdSetting;
  /** The field an OpenAPI link from the create's answer feeds into the item parameter (`$response.body#/isbn`). */
  readonly linked: string | undefined;
}

export type IdAnswer = { readonly id: IdField } | { readonly reason: string };

/**
 * docs/resources.md rule 4, in order: x-resource-id; a link from the create's answer; the item parameter's name
 * matched to a property (exactly, then ignoring case and separators, then without the resource's own noun:
 * `petId` → `id`, `bookIsbn` → `isbn`), then the one property with the item parameter's `pattern`; a property
 * named `id`. A candidate whose type cannot travel in the item
 * parameter is passed over, and named in the reason when nothing fits.
 */
export function findIdField(question: IdQuestion): IdAnswer {
  const { shape, parameter, extension } = question;
  if (extension.kind === 'invalid') return { reason: extension.reason };
  if (extension.kind === 'off') return { reason: `x-resource-id is false at ${extension.where}` };
  if (extension.kind === 'field') {
    const problem = unfit(shape, extension.name, parameter);
    if (problem) return { reason: `x-resource-id at ${extension.where} names ${problem}` };
    return { id: field(shape, extension.name, 'x-resource-id', extension.where) };
  }
  const passed: string[] = [];
  const candidates: [string | undefined, IdField['source'], string][] = [
    [question.linked, 'link', 'the create answer'],
    ...(parameter
      ? byParameter(shape, parameter.name, question.name).map((name): [string, IdField['source'], string] => [
          name,
          'path parameter',
          parameter.name,
        ])
      : []),
    ...(parameter
      ? sameShape(shape, parameter).map((name): [string, IdField['source'], string] => [
          name,
          'path parameter',
          `${parameter.name}, by its pattern`,
        ])
      : []),
    ['id', 'id', 'the property named id'],
  ];
  const tried = new Set<string>();
  for (const [name, source, detail] of candidates) {
    if (name === undefined || shape.properties[name] === undefined || tried.has(name)) continue;
    tried.add(name);
    const problem = unfit(shape, name, parameter);
    if (!problem) return { id: field(shape, name, source, detail) };
    passed.push(problem);
  }
  const none = parameter
    ? `no property matches the path parameter ${parameter.name} and none is named id`
    : 'no property is named id';
  return { reason: `no id field: ${passed.length > 0 ? passed.join('; ') : none}` };
}

function field(shape: ObjectShape, name: string, source: IdField['source'], detail: string): IdField {
  return { name, source, detail, schema: shape.properties[name] as IdField['schema'] };
}

// Lower case without separators: `pet_id`, `Pet-Id` and `petId` are one name.
function normal(name: string): string {
  return name.toLowerCase().replace(/[_\-.\s]/g, '');
}

function byParameter(shape: ObjectShape, parameter: string, collection: string): string[] {
  const names = Object.keys(shape.properties);
  const wanted = normal(parameter);
  const matches = [parameter, ...names.filter((n) => normal(n) === wanted)];
  const noun = [collection, ...singulars(collection)].map(normal).find((n) => n !== '' && wanted.startsWith(n) && wanted !== n);
  if (noun !== undefined) matches.push(...names.filter((n) => normal(n) === wanted.slice(noun.length)));
  return matches;
}

// The one property held to the same pattern as the item parameter (GitHub's `/orgs/{org}` and an org's `login`,
// both `^[a-z0-9-]{2,39}$`): the path names a record by it, whatever the two are called.
function sameShape(shape: ObjectShape, parameter: ParameterSpec): string[] {
  const pattern = (parameter.schema as RawSchema).pattern;
  if (pattern === undefined) return [];
  const names = Object.keys(shape.properties).filter((name) => shape.properties[name]?.pattern === pattern);
  return names.length === 1 ? names : [];
}

// English plurals as REST paths write them: pets → pet, addresses → address, categories → category.
function singulars(plural: string): string[] {
  if (/ies$/i.test(plural)) return [`${plural.slice(0, -3)}y`];
  if (/(s|x|z|ch|sh)es$/i.test(plural)) return [plural.slice(0, -2), plural.slice(0, -1)];
  return /s$/i.test(plural) ? [plural.slice(0, -1)] : [];
}

/** Why `name` cannot be the id: absent, not a scalar, or a type the item parameter cannot carry; else undefined. */
function unfit(shape: ObjectShape, name: string, parameter: ParameterSpec | undefined): string | undefined {
  const property = shape.properties[name];
  if (property === undefined) return `'${name}', which the representation does not have`;
  if (!isScalarSchema(property)) return `'${name}', which is not a string or a number`;
  if (parameter === undefined || fits(parameter.schema as RawSchema, property)) return undefined;
  return `'${name}' (${describe(property)}), which the path parameter ${parameter.name} (${describe(parameter.schema as RawSchema)}) cannot carry`;
}

// A text parameter carries any scalar; a numeric one only integers (or numbers, for a number parameter).
function fits(parameter: RawSchema, property: RawSchema): boolean {
  const accepts = schemaTypes(parameter).filter((t) => t !== 'null');
  if (accepts.length === 0 || accepts.includes('string')) return true;
  const given = schemaTypes(property).filter((t) => t !== 'null');
  return given.every((t) => t === 'integer' || (t === 'number' && accepts.includes('number')));
}

function describe(schema: RawSchema): string {
  return schemaTypes(schema).join(' or ') || 'untyped';
}
