import { isSecretName } from '../shared/secret-names.js';

/**
 * The -H credentials by lower-case name, as sent: recorded as *** however short they are. A header that carries a
 * credential (an API key header, a cookie, a token) is a secret like the key: it is redacted from everything
 * recorded, and its curl line shows *** in its place.
 */
export function secretHeaders(headers: Readonly<Record<string, string>> | undefined): ReadonlyMap<string, string> {
  return new Map(
    Object.entries(headers ?? {})
      .filter(([name]) => isSecretName(name))
      .map(([name, value]) => [name.toLowerCase(), value]),
  );
}

/**
 * The -H credentials to redact wherever they appear. One under 8 characters only where it is sent: as a run to
 * look for in any text, it would blank ordinary words.
 */
export function secretHeaderValues(headers: Readonly<Record<string, string>> | undefined): string[] {
  return Object.entries(headers ?? {})
    .filter(([name, value]) => isSecretName(name) && value.length >= 8)
    .map(([, value]) => value);
}
