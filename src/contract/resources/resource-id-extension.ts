/**
 * `x-resource-id`: the contract's own word on a resource's id field, first of the id rules (docs/resources.md,
 * rule 4.1). Its value is the name of a property of the representation schema, or `false` to keep the resource
 * stateless. It may be written on the representation schema, on the collection's or the item's path item, or on
 * any of the resource's operations; where it is written more than once, every value must agree.
 */
export const RESOURCE_ID_EXTENSION = 'x-resource-id';

export interface ExtensionPlace {
  /** How a reader finds it: `GET /pets/{petId}`, `path /pets`, `the representation schema`. */
  readonly where: string;
  readonly holder: object | undefined;
}

export type ResourceIdSetting =
  | { readonly kind: 'none' }
  | { readonly kind: 'field'; readonly name: string; readonly where: string }
  | { readonly kind: 'off'; readonly where: string }
  | { readonly kind: 'invalid'; readonly reason: string };

export function readResourceIdExtension(places: readonly ExtensionPlace[]): ResourceIdSetting {
  const found = places.flatMap(({ where, holder }) =>
    holder !== undefined && holder !== null && Object.hasOwn(holder, RESOURCE_ID_EXTENSION)
      ? [{ where, value: (holder as Record<string, unknown>)[RESOURCE_ID_EXTENSION] }]
      : [],
  );
  const first = found[0];
  if (first === undefined) return { kind: 'none' };
  const bad = found.find(({ value }) => value !== false && (typeof value !== 'string' || value === ''));
  if (bad) {
    return {
      kind: 'invalid',
      reason: `${RESOURCE_ID_EXTENSION} at ${bad.where} must be a property name or false (got ${JSON.stringify(bad.value)})`,
    };
  }
  const other = found.find(({ value }) => value !== first.value);
  if (other) {
    return {
      kind: 'invalid',
      reason: `${RESOURCE_ID_EXTENSION} says ${JSON.stringify(first.value)} at ${first.where} but ${JSON.stringify(other.value)} at ${other.where}`,
    };
  }
  return first.value === false
    ? { kind: 'off', where: first.where }
    : { kind: 'field', name: first.value as string, where: first.where };
}
