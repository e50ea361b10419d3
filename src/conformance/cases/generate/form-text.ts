/**
 * A flat object as `application/x-www-form-urlencoded` text, as OpenAPI's encoding reads it by default (style form,
 * explode: an array is its key repeated, RFC 1866 §8.2.1 / the URL Standard's serializer). Undefined for what that
 * default cannot write without an `encoding` object: a nested object, an array of objects, or no object at all. A
 * null is left out, as a form has no null.
 */
export function formText(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const form = new URLSearchParams();
  for (const [name, field] of Object.entries(value)) {
    const items = Array.isArray(field) ? field : [field];
    for (const item of items) {
      if (item === null || item === undefined) continue;
      if (typeof item === 'object') return undefined;
      form.append(name, String(item));
    }
  }
  return form.toString();
}
