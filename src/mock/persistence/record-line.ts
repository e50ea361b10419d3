/**
 * A record's line in a state file: its JSON text, or for a nested record `[parents, record]`, its parents' ids
 * (its scope, see scopeOf) first, so that it is restored under them.
 */
export function recordLine(json: string, scope: string | undefined): string {
  return scope === undefined ? json : `[${scope},${json}]`;
}

/** What a record's line takes in a state file, newline included. */
export function lineBytes(json: string, scope: string | undefined): number {
  return Buffer.byteLength(json) + 1 + (scope === undefined ? 0 : Buffer.byteLength(scope) + 3);
}
