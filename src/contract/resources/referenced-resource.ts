import type { JsonSchema } from '../operation.js';
import { schemaTypes } from './object-shape.js';
import { pathParameterNames } from './read-path.js';
import type { Resource, ResourceModel } from './resource.js';

/**
 * The resource a request body's field refers to (docs/reference/resources.md, rule 9). First by the item
 * parameter's exact name (`petId` in an order → `/pets/{petId}`), as the id rule reads `petId` in the path. Then,
 * spelling aside (case, `_`, `-`), by that name or by the collection's singular and the id field: `pet_id`,
 * `PetID` or `petId` → `/pets/{id}`, `category_id` → `/categories/{id}`, `countryCode` → `/countries/{code}`,
 * provided the field can carry the id (its type, and its format where both name one) and one resource fits, or
 * one top-level resource among them. A field that names nothing of the kind (`categoryId` where no
 * `/categories/{…}` exists) refers to nothing the contract describes. A server may check that a referenced record
 * exists (a foreign key): the runner sends the id of a record of its own there, and takes a refusal of any other
 * value as the server's choice. `from`: the resource whose request it is; `schema`: the field's, when known.
 */
export function referencedResource(
  model: ResourceModel,
  field: string,
  from?: Resource,
  schema?: JsonSchema,
): Resource | undefined {
  // Its own id, and its parents' (a book's authorId, which its path already gives), are no reference.
  const own = new Set<string>();
  for (let at = from; at; at = model.resources.find((r) => r.key === at?.parent)) own.add(at.key);
  const addressable = model.resources.filter(
    (r) => !own.has(r.key) && !r.stateless && r.id !== undefined && r.itemPath !== undefined,
  );
  // A resource's own id field is never a reference, whatever other resource it would name.
  if (from?.id?.name === field) return undefined;
  const exact = addressable.find((r) => itemParameter(r) === field && field !== r.id?.name);
  if (exact) return exact;
  const spelled = spelling(field);
  const fitting = addressable.filter(
    (r) => namesFor(r).has(spelled) && (schema === undefined || carriesId(schema, (r.id as NonNullable<Resource['id']>).schema)),
  );
  const topLevel = fitting.filter((r) => r.parent === undefined);
  return topLevel.length === 1 ? topLevel[0] : fitting.length === 1 ? fitting[0] : undefined;
}

function itemParameter(resource: Resource): string | undefined {
  return pathParameterNames(resource.itemPath as string).at(-1);
}

/** What a name reads as whatever its style: `pet_id`, `PetID` and `petId` are `petid`. */
function spelling(name: string): string {
  return name.toLowerCase().replace(/[-_.\s]/g, '');
}

// The names a field referring to a resource goes by, in spelling(): computed once per resource of a model.
const names = new WeakMap<Resource, ReadonlySet<string>>();

function namesFor(resource: Resource): ReadonlySet<string> {
  let known = names.get(resource);
  if (known === undefined) {
    const id = spelling((resource.id as NonNullable<Resource['id']>).name);
    const parameter = spelling(itemParameter(resource) as string);
    // A parameter named as the id field (`{id}`, `{code}`) says nothing of which resource it is.
    const found = new Set<string>(parameter === id ? [] : [parameter]);
    for (const singular of singulars(resource.name)) {
      const word = spelling(singular);
      if (word === '') continue;
      found.add(`${word}${id}`);
      found.add(`${word}id`);
    }
    known = found;
    names.set(resource, known);
  }
  return known;
}

/**
 * English singulars of a collection's last segment, every reading kept (`categories` → category, `movies` →
 * movie; `boxes` → box): a field names one of them. The segment itself is kept too (`news`, `data`).
 */
function singulars(segment: string): string[] {
  const out = [segment];
  if (/ies$/i.test(segment)) out.push(`${segment.slice(0, -3)}y`);
  if (/es$/i.test(segment)) out.push(segment.slice(0, -2));
  if (/[^s]s$/i.test(segment)) out.push(segment.slice(0, -1));
  return out;
}

/**
 * The field can hold the resource's ids as they are: an integer id in an integer or number field, a string id in
 * a string field of the same format where both name one, a field with no type taking either. A field limited to
 * an enum holds chosen values, not ids.
 */
function carriesId(field: JsonSchema, id: JsonSchema): boolean {
  if (field.enum !== undefined || (field as { const?: unknown }).const !== undefined) return false;
  const fieldTypes = schemaTypes(field);
  if (fieldTypes.length === 0) return true;
  const idTypes = schemaTypes(id).filter((t) => t !== 'null');
  if (idTypes.some((t) => t === 'integer' || t === 'number')) {
    return fieldTypes.includes('number') || (fieldTypes.includes('integer') && !idTypes.includes('number'));
  }
  return (
    idTypes.includes('string') &&
    fieldTypes.includes('string') &&
    (field.format === undefined || id.format === undefined || field.format === id.format)
  );
}
