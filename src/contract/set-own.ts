/**
 * `target[key] = value` for keys read from a document: a plain assignment to a key named __proto__ would set the
 * object's prototype instead of the field the document has.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}
