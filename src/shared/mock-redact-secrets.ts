/** What stands where a secret was. */
export const REDACTED = '[redacted]';

/**
 * Returns a function that replaces every occurrence of the given secrets (API keys) in a text, as sent and in the
 * encodings a client may put them in a URL, a body or a header: percent-encoded, base64 and base64url (a key in
 * Basic credentials or a token). Secrets never reach a log line or the journal in any of them. Plain
 * string search, linear in the text; a text without any secret comes back as the same string.
 */
export function createSecretRedactor(secrets: readonly string[]): (text: string) => string {
  const forms = [
    ...new Set(
      secrets.flatMap((secret) => [
        secret,
        encodeURIComponent(secret),
        Buffer.from(secret).toString('base64').replace(/=+$/, ''),
        Buffer.from(secret).toString('base64url'),
      ]),
    ),
  ]
    .filter((form) => form.length >= 4)
    // Longest first: a form that contains another is replaced whole.
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let redacted = text;
    for (const form of forms) if (redacted.includes(form)) redacted = redacted.split(form).join(REDACTED);
    return redacted;
  };
}
