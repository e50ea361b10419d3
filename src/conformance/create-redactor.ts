/** Replaces every occurrence of the key with `***`: in headers, bodies a server echoes, and messages. */
export type Redactor = (text: string) => string;

/**
 * Also the forms a server may echo it in: escaped inside a JSON string, or percent-encoded in a URL. Even a key
 * of a few characters is redacted, at the price of blanking the same letters in ordinary text: a report that
 * reads oddly is better than one that leaks.
 */
export function createRedactor(secret: string | undefined): Redactor {
  if (!secret) return (text) => text;
  const forms = [...new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])].sort(
    (a, b) => b.length - a.length,
  );
  return (text) => {
    let redacted = text;
    for (const form of forms) if (redacted.includes(form)) redacted = redacted.split(form).join('***');
    return redacted;
  };
}
