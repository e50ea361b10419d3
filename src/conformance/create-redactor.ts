/** Replaces every occurrence of the key with `***`: in headers, bodies a server echoes, and messages. */
export type Redactor = (text: string) => string;

export function createRedactor(secret: string | undefined): Redactor {
  // A key of a few characters would blank out ordinary text; such keys are still never printed as headers (see buildRequest).
  if (!secret || secret.length < 4) return (text) => text;
  return (text) => (text.includes(secret) ? text.split(secret).join('***') : text);
}
