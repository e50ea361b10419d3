/** What a request can ask of the mock (RFC 7240 Prefer, in Prism's vocabulary plus delay and fault). */
export interface Preferences {
  code?: number;
  delayMs?: number;
  fault?: Fault;
  example?: string;
  dynamic?: boolean;
  /** Tokens the mock does not know or whose value is not valid, as sent: the log says they were not applied. */
  readonly unknown: string[];
}

// Shared by every request without Prefer or a rule; never written to.
export const NO_PREFERENCES: Preferences = { unknown: [] };

export type Fault = 'reset' | 'empty' | 'malformed' | 'hang';
const FAULTS: ReadonlySet<string> = new Set<Fault>(['reset', 'empty', 'malformed', 'hang']);

/** The longest delay a request may ask for: below the clients' usual time-outs, and bounded so none can hold a socket for ever. */
export const MAX_DELAY_MS = 30_000;

// One row per preference: how its value is read, undefined when it is not valid.
const READERS: Readonly<Record<string, (value: string, into: Preferences) => boolean>> = {
  code: (value, into) => set(into, 'code', /^\d{3}$/.test(value) ? Number(value) : undefined),
  // Any run of digits, however long, waits the longest delay: a number too big for a double is still "long".
  delay: (value, into) => set(into, 'delayMs', /^\d+$/.test(value) ? Math.min(Number(value), MAX_DELAY_MS) : undefined),
  fault: (value, into) => set(into, 'fault', FAULTS.has(value) ? (value as Fault) : undefined),
  example: (value, into) => set(into, 'example', value === '' ? undefined : value),
  dynamic: (value, into) => set(into, 'dynamic', value === 'true' ? true : value === 'false' ? false : undefined),
};

/**
 * Reads `Prefer: code=503, delay=200` (RFC 7240 §2: preferences separated by commas, parameters by semicolons; both
 * read alike, as Prism does). Linear: split and indexOf only, no regex over the whole header.
 */
export function readPreferences(header: string | string[] | undefined): Preferences {
  const preferences: Preferences = { unknown: [] };
  if (header === undefined) return preferences;
  for (const token of String(header).split(/[,;]/)) {
    const text = token.trim();
    if (text === '') continue;
    const equals = text.indexOf('=');
    const name = (equals === -1 ? text : text.slice(0, equals)).trim().toLowerCase();
    const value = equals === -1 ? '' : unquote(text.slice(equals + 1).trim());
    const read = Object.hasOwn(READERS, name) ? READERS[name] : undefined;
    if (!read?.(value, preferences)) preferences.unknown.push(text.slice(0, 100));
  }
  return preferences;
}

// RFC 7240 §2: a preference given twice counts once, the first time; a later one is not applied (and logged so).
function set<K extends keyof Preferences>(into: Preferences, key: K, value: Preferences[K] | undefined): boolean {
  if (value === undefined || into[key] !== undefined) return false;
  into[key] = value;
  return true;
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}
