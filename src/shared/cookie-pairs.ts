/**
 * The values a Cookie header gives each name (RFC 6265 §4.2.1: `name=value` pairs separated by `;`; Node joins
 * several Cookie fields the same way). A name given twice keeps both values, in order: which one a server reads is
 * its own choice, so a reader that needs one value can refuse two.
 */
export function cookiePairs(header: string | undefined): Record<string, string | string[]> {
  const pairs: Record<string, string | string[]> = Object.create(null);
  if (header === undefined) return pairs;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq === -1) continue;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const before = pairs[name];
    pairs[name] = before === undefined ? value : [before, value].flat();
  }
  return pairs;
}
