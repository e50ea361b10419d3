/**
 * How a path template places an operation (docs/resources.md, rule 1): a collection path ends in a fixed segment;
 * an item path is a collection path plus one segment that is wholly a parameter, last. Parameter names do not
 * matter, position does: `/users/{id}/orders` and `/users/{userId}/orders` are one collection.
 */
export type PathPlace =
  | { readonly kind: 'collection'; readonly key: string; readonly collectionPath: string }
  | { readonly kind: 'item'; readonly key: string; readonly collectionPath: string; readonly itemParameter: string }
  | { readonly kind: 'other'; readonly reason: string };

const WHOLE_PARAMETER = /^\{([^{}]+)\}$/;
const ANY_PARAMETER = /\{[^{}]*\}/g;

export function readPath(template: string): PathPlace {
  // One trailing slash is the API's spelling (Django REST framework writes `/snippets/` and `/snippets/{id}/`), not
  // a segment: `/snippets/` is the collection `/snippets`, kept in the spelling the contract writes.
  const slash = template.length > 1 && template.endsWith('/') ? '/' : '';
  const trimmed = slash ? template.slice(0, -1) : template;
  const segments = trimmed.split('/').slice(1);
  if (!template.startsWith('/') || segments.some((s) => s === '')) {
    return { kind: 'other', reason: 'its path has an empty segment' };
  }
  const last = segments.at(-1) as string;
  if (isFixed(last)) return { kind: 'collection', key: eraseParameters(trimmed), collectionPath: template };
  const whole = WHOLE_PARAMETER.exec(last);
  const before = segments.at(-2);
  if (whole && before !== undefined && isFixed(before)) {
    const collection = `/${segments.slice(0, -1).join('/')}`;
    return {
      kind: 'item',
      key: eraseParameters(collection),
      collectionPath: `${collection}${slash}`,
      itemParameter: whole[1] as string,
    };
  }
  return {
    kind: 'other',
    reason: whole
      ? 'its last parameter does not follow a fixed segment, so it names no item of a collection'
      : 'its last segment is neither fixed nor wholly a parameter',
  };
}

/** `/users/{userId}/orders` → `/users/{}/orders`: the store key, never the last segment alone. */
export function eraseParameters(template: string): string {
  return template.replace(ANY_PARAMETER, '{}');
}

/**
 * The key of the collection a nested collection's records belong to: `/authors/{}/books` → `/authors`, the
 * collection whose item path is the prefix up to the last parameter.
 */
export function parentKey(key: string): string | undefined {
  const segments = key.split('/').slice(1);
  const at = segments.lastIndexOf('{}');
  if (at < 1 || !isFixed(segments[at - 1] as string)) return undefined;
  return `/${segments.slice(0, at).join('/')}`;
}

/** Names of a template's parameters, in order. */
export function pathParameterNames(template: string): string[] {
  return [...template.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1] as string);
}

function isFixed(segment: string): boolean {
  return !segment.includes('{') && !segment.includes('}');
}
