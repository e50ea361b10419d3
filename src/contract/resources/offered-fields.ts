import { objectShape, type RawSchema } from './object-shape.js';

/**
 * The fields a write's request record may set: those its schema names, or undefined where it takes any (an
 * `additionalProperties` other than false, in it or a member of its allOf) or is no object. A server may drop a
 * field the write does not name, so the mock keeps none and the runner expects none back.
 */
export function offeredFields(schema: RawSchema | undefined): ReadonlySet<string> | undefined {
  const shape = objectShape(schema);
  const members = [schema, ...(schema?.allOf ?? [])];
  const open = members.some((member) => member?.additionalProperties !== undefined && member.additionalProperties !== false);
  return shape === undefined || open ? undefined : new Set(Object.keys(shape.properties));
}
