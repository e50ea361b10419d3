import type { JsonSchema } from '../../contract/operation.js';
import { objectShape, schemaTypes } from '../../contract/resources/object-shape.js';
import { setOwn } from '../../contract/set-own.js';

const FORM_TYPE = 'application/x-www-form-urlencoded';

export function isForm(mediaType: string): boolean {
  return mediaType === FORM_TYPE;
}

/**
 * An `application/x-www-form-urlencoded` body as the object its schema describes, as OpenAPI's default encoding
 * writes one (style form, explode: an array is its key repeated): each value read as its property's type, as a
 * query value is, so that `percent_off=25&tags=a&tags=b` is `{ percent_off: 25, tags: ["a", "b"] }` and is stored
 * as what the client sent. A value that does not read as its type stays text, for the schema to refuse.
 */
export function readFormBody(
  text: string,
  schema: JsonSchema | undefined,
  coerce: (type: string | undefined, text: string) => unknown,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const add = fieldAdder(body, schema, coerce);
  for (const [name, value] of new URLSearchParams(text)) add(name, value);
  return body;
}

/**
 * Adds one field of a form (urlencoded or multipart) to the object it makes: read as its property's type, a
 * repeated name gathered into the array its property is.
 */
export function fieldAdder(
  body: Record<string, unknown>,
  schema: JsonSchema | undefined,
  coerce: (type: string | undefined, text: string) => unknown,
): (name: string, value: string) => void {
  const properties = objectShape(schema)?.properties ?? {};
  return (name, value) => {
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    const [type] = schemaTypes(property).filter((t) => t !== 'null');
    if (type === 'array') {
      const [itemType] = schemaTypes(property?.items).filter((t) => t !== 'null');
      const list = Object.hasOwn(body, name) && Array.isArray(body[name]) ? (body[name] as unknown[]) : [];
      setOwn(body, name, [...list, coerce(itemType, value)]);
    } else setOwn(body, name, coerce(type, value));
  };
}
