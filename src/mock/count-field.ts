/**
 * How many times a field stands in a request's raw headers: Node keeps one of a repeated single field (Host,
 * Authorization) and drops the rest. Only names of the same length are lower-cased, not a copy of each name.
 */
export function countField(rawHeaders: readonly string[], lowerName: string): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (name.length === lowerName.length && name.toLowerCase() === lowerName) count++;
  }
  return count;
}
